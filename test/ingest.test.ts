import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mintShare } from '../src/domain/share-tokens.ts';
import { makeTextPdf } from './fixtures/pdf.ts';
import { type Harness, startHarness, type TestWorkspace } from './helpers/harness.ts';

// interface.md 2.9-2.11, 3.3, 4.6, 4.7; decisions.md D4, D7, D8, D9 — a PDF end to end.
describe('ingest a PDF end to end', () => {
  let h: Harness;
  let ws: TestWorkspace;
  let fileId: string;
  let jobId: string;
  const pages = [
    ['Master Services Agreement', 'between Acme Corporation and Globex Limited'],
    ['Payment terms: invoices are due within thirty days', 'Late payments accrue interest'],
    ['Termination: either party may terminate with notice', 'Signed in Springfield'],
  ];

  beforeAll(async () => {
    h = await startHarness({}, { worker: true });
    ws = await h.workspace({ credits: 20 });
    const pdf = await makeTextPdf(pages);
    const r = await h.upload(ws, { file: { data: pdf, name: 'msa.pdf' } });
    expect(r.status).toBe(200);
    const job = ((await r.json()) as { data: Record<string, string> }).data;
    expect(job).toMatchObject({ type: 'extract', status: 'NOT_STARTED' });
    expect(job.id).toMatch(/^dsj_[0-9A-Za-z]{20}$/);
    jobId = job.id;
    fileId = job.fileId;
    const done = await h.waitJob(ws, jobId);
    expect(done).toMatchObject({ status: 'SUCCESS', statusText: null, fileId });
    expect(done.finishedAt).toBeGreaterThanOrEqual(done.startedAt as number);
  });
  afterAll(() => h.close());

  const get = (url: string) =>
    h.request('GET', url, { key: ws.key }).then((r) => ({ status: r.statusCode, body: r.json() }));

  it('describes the file: a doc of 3 pages, charged 3 credits with a ledger row each', async () => {
    const f = (await get(`/v2/workspaces/${ws.id}/files/${fileId}`)).body.data;
    expect(f).toMatchObject({
      id: fileId,
      workspaceId: ws.id,
      type: 'doc',
      fileName: 'msa.pdf',
      fileExt: 'pdf',
      mimeType: 'application/pdf',
      itemCount: 3,
      expiresAt: null,
    });
    expect(f.fileSize).toBeGreaterThan(0);
    expect(f.share).toMatchObject({
      url: expect.stringContaining(`/v2/share/${fileId}?token=`),
      token: expect.stringMatching(/^v1\./),
    });
    const w = (await h.admin('GET', `/admin/workspaces/${ws.id}`)).json().data;
    expect(w.balance).toBe(17);
    expect(w.monthSpend).toBe(3);
    const ledger = await h.db.query<{ amount: number; reason: string; ref_id: string }>(
      "SELECT amount, reason, ref_id FROM credit_ledger WHERE workspace_id = $1 AND reason = 'ingest_page'",
      [ws.id],
    );
    expect(ledger).toEqual([1, 2, 3].map(() => ({ amount: -1, reason: 'ingest_page', ref_id: jobId })));
  });

  it('stores each page text with word boxes and indexes it for full-text search', async () => {
    const rows = await h.db.query<{
      page: number;
      text: string;
      words: [string, number, number, number, number][];
    }>('SELECT page, text, words FROM file_pages WHERE file_id = $1 ORDER BY page', [fileId]);
    expect(rows.map((r) => r.page)).toEqual([1, 2, 3]);
    expect(rows[1].text).toContain('invoices are due within thirty days');
    const w = rows[1].words.find((x) => x[0] === 'invoices')!;
    expect(w).toBeDefined();
    for (const n of w.slice(1) as number[]) expect(n).toBeGreaterThanOrEqual(0);
    for (const n of w.slice(1) as number[]) expect(n).toBeLessThanOrEqual(1);
    expect(w[3]).toBeGreaterThan(w[1]);
    const hits = await h.db.query<{ page: number }>(
      "SELECT page FROM file_pages WHERE file_id = $1 AND tsv @@ plainto_tsquery('english', 'terminate notice')",
      [fileId],
    );
    expect(hits.map((x) => x.page)).toEqual([3]);
  });

  it('lists items: three representations per page, in upload order, paged, filterable', async () => {
    const all = (await get(`/v2/workspaces/${ws.id}/files/${fileId}/items?limit=100`)).body;
    expect(all).toMatchObject({ success: true, total: 9, offset: 0, limit: 100 });
    expect(all.data.map((i: { col: number; row: string }) => `${i.col}${i.row[0]}`)).toEqual([
      '1p',
      '1j',
      '1e',
      '2p',
      '2j',
      '2e',
      '3p',
      '3j',
      '3e',
    ]);
    for (const i of all.data) expect(i.id).toMatch(/^dsx_/);

    const jpgs = (await get(`/v2/workspaces/${ws.id}/files/${fileId}/items?row=jpg&sort=-col`)).body;
    expect(jpgs.data.map((i: { col: number }) => i.col)).toEqual([3, 2, 1]);
    const two = (await get(`/v2/workspaces/${ws.id}/files/${fileId}/items?cols=2`)).body;
    expect(two.total).toBe(3);
    const range = (await get(`/v2/workspaces/${ws.id}/files/${fileId}/items?cols=1:2&row=pdf&sort=col`)).body;
    expect(range.data.map((i: { col: number }) => i.col)).toEqual([1, 2]);
    const paged = (await get(`/v2/workspaces/${ws.id}/files/${fileId}/items?offset=2&limit=2&sort=col,row`))
      .body;
    expect(paged).toMatchObject({ total: 9, offset: 2, limit: 2 });
    expect(paged.data).toHaveLength(2);
    expect((await get(`/v2/workspaces/${ws.id}/files/${fileId}/items?limit=1000`)).body.limit).toBe(100);
    expect((await get(`/v2/workspaces/${ws.id}/files/${fileId}/items`)).body.limit).toBe(10);
    const bad = await get(`/v2/workspaces/${ws.id}/files/${fileId}/items?row=png`);
    expect(bad.status).toBe(400);
    const one = all.data[4];
    const item = (await get(`/v2/workspaces/${ws.id}/files/${fileId}/items/${one.id}?expiresInSeconds=5`))
      .body.data;
    expect(item).toMatchObject({ id: one.id, fileId, row: 'jpg', col: 2 });
    expect(item.share.expiresAt - Date.now()).toBeGreaterThan(55_000); // clamped up to 60 s
    expect(item.share.expiresAt - Date.now()).toBeLessThanOrEqual(60_000);
  });

  it('lists files with types, sort and paging', async () => {
    const list = (
      await get(`/v2/workspaces/${ws.id}/files?types=doc&sort=-createdAt,bogus&expiresInSeconds=999999`)
    ).body;
    expect(list).toMatchObject({ success: true, total: 1, offset: 0, limit: 10 });
    expect(list.data[0].share.expiresAt - Date.now()).toBeLessThanOrEqual(86_400_000);
    expect(list.data[0].share.expiresAt - Date.now()).toBeGreaterThan(86_000_000);
    expect((await get(`/v2/workspaces/${ws.id}/files?types=image`)).body.total).toBe(0);
    expect((await get(`/v2/workspaces/${ws.id}/files?types=pdf`)).status).toBe(400);
  });

  it('serves page bytes through share links with the headers of 4.7, and records a trail without tokens', async () => {
    const items = (await get(`/v2/workspaces/${ws.id}/files/${fileId}/items?cols=1&limit=3`)).body.data as {
      row: string;
      share: { url: string; token: string };
    }[];
    for (const it of items) {
      const r = await fetch(it.share.url);
      expect(r.status).toBe(200);
      const bytes = Buffer.from(await r.arrayBuffer());
      if (it.row === 'pdf') {
        expect(r.headers.get('content-type')).toBe('application/pdf');
        expect(bytes.subarray(0, 5).toString()).toBe('%PDF-');
      } else {
        expect(r.headers.get('content-type')).toBe('image/jpeg');
        expect(bytes[0]).toBe(0xff);
        expect(bytes[1]).toBe(0xd8);
      }
      expect(r.headers.get('content-disposition')).toBe('inline');
      expect(r.headers.get('x-content-type-options')).toBe('nosniff');
      expect(r.headers.get('cache-control')).toMatch(/^private, max-age=(\d+), immutable$/);
      const maxAge = Number(/max-age=(\d+)/.exec(r.headers.get('cache-control')!)![1]);
      expect(maxAge).toBeGreaterThan(590);
      expect(maxAge).toBeLessThanOrEqual(600);
    }
    // The file's own share serves the original upload.
    const f = (await get(`/v2/workspaces/${ws.id}/files/${fileId}`)).body.data;
    const orig = await fetch(f.share.url);
    expect(orig.status).toBe(200);
    expect(Number(orig.headers.get('content-length'))).toBe(f.fileSize);

    const pdfItem = items.find((i) => i.row === 'pdf')!;
    const id = pdfItem.share.url.split('/v2/share/')[1].split('?')[0];
    const bad = await fetch(`${h.baseUrl}/v2/share/${id}?token=${pdfItem.share.token.slice(0, -2)}xx`);
    expect(bad.status).toBe(401);
    const other = await fetch(
      `${h.baseUrl}/v2/share/${items[1].share.url.split('/v2/share/')[1].split('?')[0]}?token=${encodeURIComponent(pdfItem.share.token)}`,
    );
    expect(other.status).toBe(401); // a token authorises exactly one page
    const expired = mintShare(h.shareSecret, h.baseUrl, id, 60, Date.now() - 3_600_000);
    expect((await fetch(expired.url)).status).toBe(401);
    expect((await fetch(`${h.baseUrl}/v2/share/${id}`)).status).toBe(400);

    const trail = await h.db.query<Record<string, unknown>>(
      'SELECT * FROM share_redemptions WHERE target_id = $1',
      [id],
    );
    expect(trail.map((t) => t.outcome).sort()).toEqual(['expired_token', 'invalid_token', 'served']);
    expect(JSON.stringify(trail)).not.toContain(pdfItem.share.token.split('.')[2]);
  });

  it('mints share links for Read keys, clamped, writing nothing', async () => {
    const item = (await get(`/v2/workspaces/${ws.id}/files/${fileId}/items?limit=1`)).body.data[0];
    const count = async () =>
      (await h.db.query<{ n: number }>('SELECT count(*)::int AS n FROM share_redemptions'))[0].n;
    const before = await count();
    const r = await h.request('POST', `/v2/workspaces/${ws.id}/share/${item.id}`, {
      key: ws.readKey,
      body: { expiresIn: 1_000_000 },
    });
    expect(r.statusCode).toBe(200);
    expect(r.json().data.expiresAt - Date.now()).toBeGreaterThan(86_000_000);
    const dflt = await h.request('POST', `/v2/workspaces/${ws.id}/share/${item.id}`, { key: ws.readKey });
    expect(dflt.json().data.expiresAt - Date.now()).toBeLessThanOrEqual(600_000);
    expect(await count()).toBe(before);
    expect(
      (await h.request('POST', `/v2/workspaces/${ws.id}/share/dsx_nothere00000000000000`, { key: ws.key }))
        .statusCode,
    ).toBe(404);
    const served = await fetch(r.json().data.url);
    expect(served.status).toBe(200);
  });

  it('rejects a job of another workspace as absent', async () => {
    const other = await h.workspace();
    expect(
      (await h.request('GET', `/v2/workspaces/${other.id}/jobs/${jobId}`, { key: other.key })).statusCode,
    ).toBe(404);
    expect(
      (await h.request('GET', `/v2/workspaces/${other.id}/files/${fileId}`, { key: other.key })).statusCode,
    ).toBe(404);
  });
});
