const mb = () => Math.round(process.memoryUsage().rss / 1048576);
const { PagePool } = await import('./src/ingest/page-pool.ts');
const pool = new PagePool(2);
await pool.inspect('/tmp/mem200.pdf');
for (let round = 0; round < 3; round++) {
  const t = performance.now();
  let next = 0;
  const worker = async () => {
    while (next < 200) {
      const i = next++;
      await pool.page('/tmp/mem200.pdf', i, 150);
    }
  };
  await Promise.all([worker(), worker(), worker(), worker()]);
  console.log('200 pages', mb(), 'MB', Math.round(performance.now() - t), 'ms');
}
await pool.close();
