import pg from 'pg';
import { type Database, parseInt8, type Queryable } from './database.ts';
import { translateDbError } from './pg-errors.ts';

const INT8_OID = 20;

export async function openPostgres(url: string, poolSize: number): Promise<Database> {
  const pool = new pg.Pool({
    connectionString: url,
    max: poolSize,
    types: {
      getTypeParser: ((oid: number, format?: 'text' | 'binary') =>
        oid === INT8_OID ? parseInt8 : pg.types.getTypeParser(oid, format)) as typeof pg.types.getTypeParser,
    },
  });
  // An idle client losing its connection must not crash the process.
  pool.on('error', () => {});
  const client = await pool.connect();
  client.release();

  const asQueryable = (q: pg.Pool | pg.PoolClient): Queryable => ({
    async query<R>(sql: string, params: readonly unknown[] = []) {
      try {
        const res = await q.query(sql, params as unknown[]);
        return res.rows as R[];
      } catch (err) {
        throw translateDbError(err);
      }
    },
  });
  const root = asQueryable(pool);
  return {
    kind: 'postgres',
    query: root.query,
    async transaction(fn) {
      const c = await pool.connect();
      try {
        await c.query('BEGIN');
        const out = await fn(asQueryable(c));
        await c.query('COMMIT').catch((err: unknown) => {
          throw translateDbError(err);
        });
        return out;
      } catch (err) {
        await c.query('ROLLBACK').catch(() => {});
        throw err;
      } finally {
        c.release();
      }
    },
    close: () => pool.end(),
  };
}
