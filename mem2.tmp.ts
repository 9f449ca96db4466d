import { PGlite } from '@electric-sql/pglite';

const mb = () => Math.round(process.memoryUsage().rss / 1048576);
const mode = process.argv[2];
const opts: Record<string, unknown> = { dataDir: `/tmp/memtest-${mode}` };
if (mode === 'small') opts.postgresqlconf = ['shared_buffers=16MB', 'work_mem=4MB', 'wal_buffers=1MB'];
if (mode === 'small2') {
  opts.postgresqlconf = ['shared_buffers=16MB'];
  opts.initialMemory = 64 * 1024 * 1024;
}
const t = performance.now();
const pg = await PGlite.create(opts);
console.log(mode, 'created', mb(), Math.round(performance.now() - t), 'ms');
await pg.query('select 1');
(globalThis as { gc?: () => void }).gc?.();
await new Promise((r) => setTimeout(r, 500));
console.log(mode, 'after gc', mb(), JSON.stringify(process.memoryUsage()));
console.log((await pg.query('show shared_buffers')).rows);
await pg.close();
console.log(mode, 'restart');
const pg2 = await PGlite.create(opts);
await pg2.query('select 1');
(globalThis as { gc?: () => void }).gc?.();
console.log(mode, 'reopened existing', mb());
