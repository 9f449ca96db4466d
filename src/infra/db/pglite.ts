import { PGlite } from '@electric-sql/pglite';
import { type Database, parseInt8, type Queryable } from './database.ts';
import { translateDbError } from './pg-errors.ts';

const INT8_OID = 20;

/** dataDir null keeps the database in memory (tests). */
export async function openPglite(dataDir: string | null): Promise<Database> {
  const pg = await PGlite.create({
    ...(dataDir ? { dataDir } : {}),
    parsers: { [INT8_OID]: parseInt8 },
    // PGlite keeps shared buffers in its WASM heap: the 128 MB default would be resident
    // memory of its own; one process on one data directory needs far less.
    postgresqlconf: ['shared_buffers=16MB'],
  });
  const asQueryable = (q: Pick<PGlite, 'query'>): Queryable => ({
    async query<R>(sql: string, params: readonly unknown[] = []) {
      try {
        const res = await q.query<R>(sql, params as unknown[]);
        return res.rows;
      } catch (err) {
        throw translateDbError(err);
      }
    },
  });
  const root = asQueryable(pg);
  return {
    kind: 'pglite',
    query: root.query,
    // PGlite serialises transactions behind its own mutex, so a single connection is safe.
    transaction: (fn) =>
      pg
        .transaction((tx) => fn(asQueryable(tx)))
        .catch((err: unknown) => {
          throw translateDbError(err);
        }),
    close: () => pg.close(),
  };
}
