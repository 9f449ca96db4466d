/**
 * Creates an embedded database, schema included, in the directory given as the only
 * argument, then exits. Run as a short-lived child process by openPglite on a first start:
 * PGlite's initdb peaks at about 1.2 GB, and the first migrations at about 500 MB more, and
 * the service itself should not carry either.
 */
import { PGlite } from '@electric-sql/pglite';
import { migrate } from './migrate.ts';
import { asDatabase, PGLITE_CONF, pglitePgModule } from './pglite.ts';

const dataDir = process.argv[2];
if (!dataDir) throw new Error('usage: pglite-initdb.ts <dataDir>');
const db = asDatabase(
  await PGlite.create({ dataDir, postgresqlconf: PGLITE_CONF, pgliteWasmModule: await pglitePgModule() }),
);
await migrate(db);
await db.close();
