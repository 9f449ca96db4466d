import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeTextPdf } from './fixtures/pdf.ts';
import { type Harness, startHarness, type TestWorkspace } from './helpers/harness.ts';
import type { Json } from './helpers/runs.ts';
import { v1 } from './helpers/v1.ts';

const DATASET_FIELDS = [
  'createdAt',
  'expiresAt',
  'fileExt',
  'fileName',
  'fileSize',
  'id',
  'itemCount',
  'mimeType',
  'share',
  'type',
  'updatedAt',
  'workspaceId',
];

// interface.md 4.8 (v1 extract), 4.9 (datasets, items), 2.9, 2.10, 3.4, 7, 8, 9 (v1 naming, shared storage).
describe('v1 datasets', () => {
  let h: Harness;
  let ws: TestWorkspace;
  let api: ReturnType<typeof v1>;
  let threePages: string;

  beforeAll(async () => {
    h = await startHarness({}, { worker: true });
    ws = await h.workspace({ credits: 200 });
    api = v1(h, ws);
    threePages = (await api.ingest('/v1/extract', ['page one', 'page two', 'page three'], 'three.pdf'))
      .datasetId;
  });
  afterAll(() => h?.close());

  it('4.8, 3.3, 9: POST /v1/extract answers a datasets/extract job IN_PROGRESS naming datasetId; GET /v1/jobs/:id follows it to SUCCESS', async () => {
    const before = await api.balance();
    const r = await api.upload('/v1/extract', {
      file: { data: await makeTextPdf([['x'], ['y']]), name: 'two.pdf' },
    });
    expect(r.status).toBe(200);
    const job = r.body.data;
    expect(job).toMatchObject({ type: 'datasets/extract', status: 'IN_PROGRESS', statusText: null });
    expect(job.id).toMatch(/^dsj_/);
    expect(job.datasetId).toMatch(/^ds_/);
    expect(job.fileId).toBeUndefined();
    expect(job.startedAt).toEqual(expect.any(Number));
    const done = await api.waitJob(job.id);
    expect(done).toMatchObject({
      id: job.id,
      datasetId: job.datasetId,
      type: 'datasets/extract',
      status: 'SUCCESS',
    });
    expect(done.finishedAt).toEqual(expect.any(Number));
    expect(before - (await api.balance())).toBe(2);
    const ds = await api.call('GET', `/v1/datasets/${job.datasetId}`);
    expect(ds.body.data).toMatchObject({ id: job.datasetId, itemCount: 2, type: 'doc', fileName: 'two.pdf' });
  });

  it('4.8, 7: v1 upload refusals are 400 JSON {success:false,error}; a read key gets 403 plain text', async () => {
    const none = await api.upload('/v1/extract', { expiresInDays: '2' });
    expect(none.status).toBe(400);
    expect(none.body).toEqual({ success: false, error: expect.any(String) });
    const local = await api.upload('/v1/vectorize', { url: 'http://127.0.0.1/x.pdf' });
    expect(local.status).toBe(400);
    expect(local.body.success).toBe(false);
    const ro = await api.upload('/v1/extract', { url: 'https://example.com/a.pdf' }, ws.readKey);
    expect(ro.status).toBe(403);
  });

  it('2.9, 4.9, 9: a dataset uploaded through v1 is the same record as the v2 file, and a v2 upload is a v1 dataset', async () => {
    const viaV1 = await api.call('GET', `/v1/datasets/${threePages}`);
    expect(viaV1.status).toBe(200);
    expect(Object.keys(viaV1.body.data).sort()).toEqual(DATASET_FIELDS);
    const viaV2 = await h.request('GET', `/v2/workspaces/${ws.id}/files/${threePages}`, { key: ws.key });
    const { share: s1, ...rest1 } = viaV1.body.data;
    const { share: s2, ...rest2 } = viaV2.json().data;
    expect(rest1).toEqual(rest2);
    expect(rest1).toMatchObject({ workspaceId: ws.id, itemCount: 3, expiresAt: null });
    expect(Object.keys(s1).sort()).toEqual(Object.keys(s2).sort());

    const up = await h.upload(ws, { file: { data: await makeTextPdf([['from v2']]), name: 'v2.pdf' } });
    const v2job = ((await up.json()) as Json).data;
    expect(v2job.status).toBe('NOT_STARTED');
    const seen = await api.waitJob(v2job.id);
    expect(seen).toMatchObject({ datasetId: v2job.fileId, type: 'datasets/extract', status: 'SUCCESS' });
    const ds = await api.call('GET', `/v1/datasets/${v2job.fileId}`);
    expect(ds.body.data).toMatchObject({ id: v2job.fileId, fileName: 'v2.pdf', itemCount: 1 });
    const listed = await api.call('GET', '/v1/datasets?limit=100');
    expect(listed.body.data.map((d: Json) => d.id)).toEqual(
      expect.arrayContaining([threePages, v2job.fileId]),
    );
  });

  it('4.9, 8: GET /v1/datasets filters by type, pages with offset/limit (over 100 clamped), sorts, newest first by default', async () => {
    const all = await api.call('GET', '/v1/datasets?limit=100');
    expect(all.status).toBe(200);
    expect(all.body).toMatchObject({ success: true, offset: 0, limit: 100 });
    const ids = all.body.data.map((d: Json) => d.id);
    expect(all.body.total).toBe(ids.length);
    const created = all.body.data.map((d: Json) => d.createdAt);
    expect(created).toEqual([...created].sort((a, b) => b - a));

    const page = await api.call('GET', '/v1/datasets?offset=1&limit=1');
    expect(page.body).toMatchObject({ offset: 1, limit: 1, total: ids.length });
    expect(page.body.data.map((d: Json) => d.id)).toEqual([ids[1]]);
    expect((await api.call('GET', '/v1/datasets?limit=500')).body.limit).toBe(100);
    expect((await api.call('GET', '/v1/datasets')).body.limit).toBe(10);

    const asc = await api.call('GET', '/v1/datasets?sort=createdAt&limit=100');
    expect(asc.body.data.map((d: Json) => d.id)).toEqual([...ids].reverse());
    const byName = await api.call('GET', '/v1/datasets?sort=fileName,nonsense&limit=100');
    const names = byName.body.data.map((d: Json) => d.fileName);
    expect(names).toEqual([...names].sort());

    expect((await api.call('GET', '/v1/datasets?type=doc&limit=100')).body.total).toBe(ids.length);
    expect((await api.call('GET', '/v1/datasets?type=image,audio,video')).body.total).toBe(0);
    const bad = await api.call('GET', '/v1/datasets?type=doc,spreadsheet');
    expect(bad.status).toBe(400);
    expect(bad.body).toEqual({ success: false, error: expect.stringContaining('spreadsheet') });
    expect((await api.call('GET', '/v1/datasets?limit=abc')).status).toBe(400);
  });

  it('4.9, 2.10, 9: items carry datasetId, filter by row and by cols with inclusive ranges; body has sort, offset, limit, total', async () => {
    const url = `/v1/datasets/${threePages}/items`;
    const all = await api.call('GET', `${url}?limit=100`);
    expect(all.status).toBe(200);
    expect(all.body).toMatchObject({ success: true, sort: [], offset: 0, limit: 100, total: 9 });
    for (const item of all.body.data) {
      expect(Object.keys(item).sort()).toEqual(['col', 'createdAt', 'datasetId', 'id', 'row', 'share']);
      expect(item.datasetId).toBe(threePages);
      expect(item.id).toMatch(/^dsx_/);
      expect(Object.keys(item.share).sort()).toEqual(['expiresAt', 'token', 'url']);
    }

    const range = await api.call('GET', `${url}?row=pdf&cols=2:3&sort=-col`);
    expect(range.body).toMatchObject({ sort: ['-col'], total: 2 });
    expect(range.body.data.map((i: Json) => [i.row, i.col])).toEqual([
      ['pdf', 3],
      ['pdf', 2],
    ]);
    const mixed = await api.call('GET', `${url}?row=jpg&cols=1,3:3&sort=col`);
    expect(mixed.body.data.map((i: Json) => i.col)).toEqual([1, 3]);
    const paged = await api.call('GET', `${url}?sort=col,row&offset=2&limit=2`);
    expect(paged.body).toMatchObject({ sort: ['col', 'row'], offset: 2, limit: 2, total: 9 });
    expect(paged.body.data).toHaveLength(2);
    expect((await api.call('GET', `${url}?limit=1000`)).body.limit).toBe(100);

    // The item's share link is redeemed by the v2 share path (decisions.md D3).
    const pdfItem = range.body.data[0];
    const served = await fetch(pdfItem.share.url);
    expect(served.status).toBe(200);
    expect(served.headers.get('content-type')).toBe('application/pdf');

    for (const q of ['row=png', 'cols=3:1', 'cols=a']) {
      const r = await api.call('GET', `${url}?${q}`);
      expect(r.status).toBe(400);
      expect(r.body).toEqual({ success: false, error: expect.any(String) });
    }
  });

  it('4.9, 7: another workspace, an unknown id and a missing dataset answer 404 JSON', async () => {
    const other = v1(h, await h.workspace());
    for (const url of [
      `/v1/datasets/${threePages}`,
      `/v1/datasets/${threePages}/items`,
      '/v1/datasets/ds_missing',
    ]) {
      const r = await other.call('GET', url);
      expect(r.status).toBe(404);
      expect(r.body).toEqual({ success: false, error: expect.any(String) });
    }
    const del = await other.call('DELETE', `/v1/datasets/${threePages}`);
    expect(del.status).toBe(404);
    expect((await api.call('GET', `/v1/datasets/${threePages}`)).status).toBe(200);
    const noKey = await h.request('GET', '/v1/datasets');
    expect(noKey.statusCode).toBe(401);
    expect(noKey.headers['content-type']).toMatch(/text\/plain/);
  });

  it('3.4, 4.9: DELETE /v1/datasets/:id returns the record with an immediate expiry; every read then answers 404, v2 too', async () => {
    const { datasetId } = await api.ingest('/v1/extract', ['short lived'], 'gone.pdf');
    const items = (await api.call('GET', `/v1/datasets/${datasetId}/items`)).body.data;
    expect((await api.call('DELETE', `/v1/datasets/${datasetId}`, ws.readKey)).status).toBe(403);

    const t0 = Date.now();
    const del = await api.call('DELETE', `/v1/datasets/${datasetId}`);
    expect(del.status).toBe(200);
    expect(Object.keys(del.body.data).sort()).toEqual(DATASET_FIELDS);
    expect(del.body.data).toMatchObject({ id: datasetId, fileName: 'gone.pdf' });
    expect(del.body.data.expiresAt).toBeGreaterThanOrEqual(t0 - 1);
    expect(del.body.data.expiresAt).toBeLessThanOrEqual(Date.now());

    for (const url of [`/v1/datasets/${datasetId}`, `/v1/datasets/${datasetId}/items`]) {
      const r = await api.call('GET', url);
      expect(r.status).toBe(404);
      expect(r.body).toEqual({ success: false, error: expect.any(String) });
    }
    expect((await api.call('DELETE', `/v1/datasets/${datasetId}`)).status).toBe(404);
    expect((await api.call('POST', `/v1/datasets/${datasetId}/vectorize`)).status).toBe(404);
    expect(
      (await h.request('GET', `/v2/workspaces/${ws.id}/files/${datasetId}`, { key: ws.key })).statusCode,
    ).toBe(404);
    expect((await fetch(items[0].share.url)).status).toBe(404);
    const listed = (await api.call('GET', '/v1/datasets?limit=100')).body.data.map((d: Json) => d.id);
    expect(listed).not.toContain(datasetId);
  });
});
