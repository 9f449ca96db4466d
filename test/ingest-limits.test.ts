import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeLargeTextPdf, makeTextPdf } from './fixtures/pdf.ts';
import { type Harness, startHarness } from './helpers/harness.ts';

// decisions.md D3 (pages per job per tier) and D4 (1 credit per page as produced; part-way exhaustion).
describe('ingest limits and credits', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness({}, { worker: true });
  });
  afterAll(() => h.close());

  const balance = async (id: string) =>
    (await h.admin('GET', `/admin/workspaces/${id}`)).json().data.balance as number;

  it('ends ERROR before any charge when the document has more pages than the tier allows', async () => {
    const ws = await h.workspace({ tier: 'starter', credits: 500 });
    const r = await h.upload(ws, { file: { data: await makeLargeTextPdf(101), name: 'long.pdf' } });
    const job = ((await r.json()) as { data: { id: string; fileId: string } }).data;
    const done = await h.waitJob(ws, job.id);
    expect(done.status).toBe('ERROR');
    expect(done.statusText).toMatch(/101 pages.*100 pages/);
    expect(await balance(ws.id)).toBe(500);
  });

  it('charges page by page and stops with ERROR when the balance runs out, keeping what was charged', async () => {
    const ws = await h.workspace({ credits: 2 });
    const pdf = await makeTextPdf([['one'], ['two'], ['three'], ['four'], ['five']]);
    const r = await h.upload(ws, { file: { data: pdf, name: 'five.pdf' } });
    const job = ((await r.json()) as { data: { id: string; fileId: string } }).data;
    const done = await h.waitJob(ws, job.id);
    expect(done.status).toBe('ERROR');
    expect(done.statusText).toMatch(/credits/i);
    expect(await balance(ws.id)).toBe(0);
    const file = (
      await h.request('GET', `/v2/workspaces/${ws.id}/files/${job.fileId}`, { key: ws.key })
    ).json().data;
    expect(file.itemCount).toBe(2);
    const pages = await h.db.query<{ page: number }>(
      'SELECT page FROM file_pages WHERE file_id = $1 ORDER BY page',
      [job.fileId],
    );
    expect(pages.map((p) => p.page)).toEqual([1, 2]);
    const ledger = await h.db.query('SELECT * FROM credit_ledger WHERE workspace_id = $1 AND reason = $2', [
      ws.id,
      'ingest_page',
    ]);
    expect(ledger).toHaveLength(2);
    // Now at 0, the next upload is refused up front.
    expect((await h.upload(ws, { file: { data: pdf, name: 'again.pdf' } })).status).toBe(402);
  });
});
