import { randomBytes } from 'node:crypto';
import pg from 'pg';
import type { Database } from '../../src/infra/db/database.ts';
import { migrate } from '../../src/infra/db/migrate.ts';
import { openPglite } from '../../src/infra/db/pglite.ts';
import { openPostgres } from '../../src/infra/db/postgres.ts';

/** Set by .ci/run for the second pass; unset means the embedded database. */
export const POSTGRES_URL = process.env.DATABASE_URL || null;

export interface TestDatabase {
  db: Database;
  /** A DATABASE_URL reaching the same schema, for child processes; null when embedded. */
  url: string | null;
  drop(): Promise<void>;
}

/** A connection string whose sessions see only `schema`. */
export function schemaUrl(base: string, schema: string): string {
  const u = new URL(base);
  u.searchParams.set('options', `-c search_path=${schema}`);
  return u.toString();
}

/**
 * Each test file gets its own database: an in-memory PGlite, or on PostgreSQL a fresh
 * schema, so parallel files and concurrent CI runs never see each other's rows.
 */
export async function createTestDatabase(opts: { migrate?: boolean } = {}): Promise<TestDatabase> {
  const migrated = opts.migrate ?? true;
  if (!POSTGRES_URL) {
    const db = await openPglite(null);
    if (migrated) await migrate(db);
    return { db, url: null, drop: () => db.close() };
  }
  const schema = `folio_t_${randomBytes(6).toString('hex')}`;
  const admin = new pg.Client({ connectionString: POSTGRES_URL });
  await admin.connect();
  await admin.query(`CREATE SCHEMA ${schema}`);
  await admin.end();
  const url = schemaUrl(POSTGRES_URL, schema);
  const db = await openPostgres(url, 5);
  if (migrated) await migrate(db);
  return {
    db,
    url,
    async drop() {
      await db.close();
      const c = new pg.Client({ connectionString: POSTGRES_URL });
      await c.connect();
      await c.query(`DROP SCHEMA ${schema} CASCADE`);
      await c.end();
    },
  };
}
