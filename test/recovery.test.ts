import { mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { makeLargeTextPdf } from './fixtures/pdf.ts';
import { ADMIN_TOKEN } from './helpers/harness.ts';
import { freePort, type Spawned, spawnScript, waitHealthy } from './helpers/process.ts';

// issue 3 item 4: a job whose worker dies (kill -9) is picked up after its lease expires and
// finishes without charging any page twice.
describe('a killed worker', () => {
  const running: Spawned[] = [];
  afterAll(async () => {
    await Promise.all(running.map((s) => s.stop('SIGKILL')));
  });

  it('leaves its job to the next worker, which finishes it charging each page once', async () => {
    const dataDir = mkdtempSync(path.join(os.tmpdir(), 'folio-recover-'));
    const env = { DATA_DIR: dataDir, ADMIN_TOKEN, TASK_LEASE_MS: '2000', INGEST_THREADS: '1' };
    let port = await freePort();
    const first = spawnScript('src/start/main.ts', { ...env, PORT: String(port) });
    running.push(first);
    await waitHealthy(first, port);
    const key = /FOLIO_API_KEY=(\S+)/.exec(first.output())![1];
    const ws = /\((wks_[0-9A-Za-z]{20})\)/.exec(first.output())![1];

    const pages = 60;
    const form = new FormData();
    form.append('file', new Blob([await makeLargeTextPdf(pages)]), 'long.pdf');
    const up = await fetch(`http://127.0.0.1:${port}/v2/workspaces/${ws}/files`, {
      method: 'POST',
      headers: { 'x-api-key': key },
      body: form,
    });
    const job = ((await up.json()) as { data: { id: string; fileId: string } }).data;

    const fileUrl = (p: number) => `http://127.0.0.1:${p}/v2/workspaces/${ws}/files/${job.fileId}`;
    const itemCount = async (p: number) =>
      (
        (await (await fetch(fileUrl(p), { headers: { 'x-api-key': key } })).json()) as {
          data: { itemCount: number };
        }
      ).data.itemCount;
    for (let i = 0; i < 600 && (await itemCount(port)) < 5; i++) await new Promise((r) => setTimeout(r, 50));
    first.proc.kill('SIGKILL');
    await first.exited;

    port = await freePort();
    const second = spawnScript('src/start/main.ts', { ...env, PORT: String(port) });
    running.push(second);
    await waitHealthy(second, port);
    const before = await itemCount(port);
    expect(before).toBeGreaterThanOrEqual(5);
    expect(before).toBeLessThan(pages); // killed part-way

    let status = '';
    for (let i = 0; i < 600 && status !== 'SUCCESS' && status !== 'ERROR'; i++) {
      await new Promise((r) => setTimeout(r, 100));
      const j = await fetch(`http://127.0.0.1:${port}/v2/workspaces/${ws}/jobs/${job.id}`, {
        headers: { 'x-api-key': key },
      });
      status = ((await j.json()) as { data: { status: string } }).data.status;
    }
    expect(status).toBe('SUCCESS');
    expect(await itemCount(port)).toBe(pages);
    const w = await fetch(`http://127.0.0.1:${port}/admin/workspaces/${ws}`, {
      headers: { 'x-admin-token': ADMIN_TOKEN },
    });
    expect(((await w.json()) as { data: { balance: number } }).data.balance).toBe(1000 - pages);
    const items = await fetch(`${fileUrl(port)}/items?limit=1`, { headers: { 'x-api-key': key } });
    expect(((await items.json()) as { total: number }).total).toBe(pages * 3);
  }, 120_000);
});
