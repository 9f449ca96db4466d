import path from 'node:path';
import type { Config } from '../config.ts';
import type { Database } from './database.ts';
import { migrate } from './migrate.ts';
import { openPglite } from './pglite.ts';
import { openPostgres } from './postgres.ts';

/** Opens the configured database and brings its schema up to date. */
export async function openDatabase(config: Config): Promise<Database> {
  const db = config.databaseUrl
    ? await openPostgres(config.databaseUrl, config.dbPoolSize)
    : await openPglite(path.join(config.dataDir, 'pgdata'));
  try {
    await migrate(db);
  } catch (err) {
    await db.close().catch(() => {});
    throw err;
  }
  return db;
}
