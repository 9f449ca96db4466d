import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeTextPdf } from './fixtures/pdf.ts';
import { type Harness, startHarness, type TestWorkspace } from './helpers/harness.ts';
import { type Json, api as v2api } from './helpers/runs.ts';
import { v1 } from './helpers/v1.ts';

// interface.md 4.8 (vectorize, POST /v1/datasets/:id/vectorize), 3.3, 7, 8 (1 credit per page);
// decisions.md D2 (standing tables), D3 (what vectorize adds), D4 (never charged twice).
describe('v1 vectorize', () => {
  let h: Harness;
  let ws: TestWorkspace;
  let api: ReturnType<typeof v1>;

  beforeAll(async () => {
    h = await startHarness({}, { worker: true });
    ws = await h.workspace({ credits: 500 });
    api = v1(h, ws);
  });
  afterAll(() => h?.close());

  const ledgerPages = async (fileJobIds: string[]) =>
    (
      await h.db.query<{ n: number }>(
        `SELECT count(*)::int AS n FROM credit_ledger WHERE workspace_id = $1 AND reason = 'ingest_page' AND ref_id = ANY($2::text[])`,
        [ws.id, fileJobIds],
      )
    )[0].n;

  it('4.8, 3.3: POST /v1/vectorize answers a datasets/vectorize job IN_PROGRESS that ingests the pages once', async () => {
    const before = await api.balance();
    const r = await api.upload('/v1/vectorize', {
      file: { data: await makeTextPdf([['alpha'], ['beta']]), name: 'v.pdf' },
      expiresInDays: '3',
    });
    expect(r.status).toBe(200);
    expect(r.body.data).toMatchObject({ type: 'datasets/vectorize', status: 'IN_PROGRESS' });
    const done = await api.waitJob(r.body.data.id);
    expect(done).toMatchObject({
      type: 'datasets/vectorize',
      status: 'SUCCESS',
      datasetId: r.body.data.datasetId,
    });
    expect(before - (await api.balance())).toBe(2);
    const ds = (await api.call('GET', `/v1/datasets/${done.datasetId}`)).body.data;
    expect(ds.itemCount).toBe(2);
    expect(Math.abs(ds.expiresAt - ds.createdAt - 3 * 86_400_000)).toBeLessThan(5_000);
    // v2 shows the same job by its own naming (D7).
    const v2 = await h.request('GET', `/v2/workspaces/${ws.id}/jobs/${done.id}`, { key: ws.key });
    expect(v2.json().data).toMatchObject({ fileId: done.datasetId, type: 'vectorize', status: 'SUCCESS' });

    const again = await api.call('POST', `/v1/datasets/${done.datasetId}/vectorize`);
    expect(again.status).toBe(400);
    expect(again.body).toEqual({ success: false, error: expect.any(String) });
  });

  it('4.8, D4: vectorizing an extracted dataset charges no page again, keeps its items and standing tables do not run again', async () => {
    const tables = v2api(h, ws);
    const standing = await tables.table('standing', { standing: true });
    await tables.column(standing, { prompt: 'What is the effective date?', outputType: 'date' });
    const { datasetId, job: extract } = await api.ingest('/v1/extract', ['one', 'two', 'three']);
    const [autoRun] = await tables.must('GET', `/tables/${standing}/runs`);
    await tables.waitRun(standing, autoRun.id);
    const itemsBefore = (await api.call('GET', `/v1/datasets/${datasetId}/items?limit=100&sort=id`)).body
      .data;
    expect(itemsBefore).toHaveLength(9);
    const before = await api.balance();

    const r = await api.call('POST', `/v1/datasets/${datasetId}/vectorize`);
    expect(r.status).toBe(200);
    const job = r.body.data;
    expect(job).toMatchObject({
      datasetId,
      type: 'datasets/vectorize',
      status: 'IN_PROGRESS',
      finishedAt: null,
    });
    expect(job.id).not.toBe(extract.id);
    const done = await api.waitJob(job.id);
    expect(done.status).toBe('SUCCESS');

    expect(await api.balance()).toBe(before);
    expect(await ledgerPages([extract.id])).toBe(3);
    expect(await ledgerPages([job.id])).toBe(0);
    const itemsAfter = (await api.call('GET', `/v1/datasets/${datasetId}/items?limit=100&sort=id`)).body.data;
    expect(itemsAfter.map((i: Json) => i.id)).toEqual(itemsBefore.map((i: Json) => i.id));
    expect((await api.call('GET', `/v1/datasets/${datasetId}`)).body.data.itemCount).toBe(3);
    expect(await tables.must('GET', `/tables/${standing}/runs`)).toHaveLength(1);

    const third = await api.call('POST', `/v1/datasets/${datasetId}/vectorize`);
    expect(third.status).toBe(400);
    expect(third.body.success).toBe(false);
    await tables.must('DELETE', `/tables/${standing}`);
  });

  it('4.8, D4: a vectorize job that failed does not count; the next one charges only the pages still missing', async () => {
    // One credit: the extract stores page 1 and ends ERROR; the dataset stays readable.
    const poor = await h.workspace({ credits: 1 });
    const p = v1(h, poor);
    const up = await p.upload('/v1/extract', {
      file: { data: await makeTextPdf([['a'], ['b'], ['c']]), name: 'p.pdf' },
    });
    expect((await p.waitJob(up.body.data.id)).status).toBe('ERROR');
    const datasetId = up.body.data.datasetId;

    const broke = await p.call('POST', `/v1/datasets/${datasetId}/vectorize`);
    expect(broke.status).toBe(200);
    const failed = await p.waitJob(broke.body.data.id);
    expect(failed).toMatchObject({ status: 'ERROR', statusText: expect.stringMatching(/credits/i) });

    await h.admin('POST', `/admin/workspaces/${poor.id}/credits`, { amount: 10 });
    const retry = await p.call('POST', `/v1/datasets/${datasetId}/vectorize`);
    expect(retry.status).toBe(200);
    expect(retry.body.data.id).not.toBe(failed.id);
    expect((await p.waitJob(retry.body.data.id)).status).toBe('SUCCESS');
    // Page 1 was paid by the extract, pages 2 and 3 by the retry: 3 pages, 3 credits, all told.
    expect((await p.call('GET', `/v1/datasets/${datasetId}`)).body.data.itemCount).toBe(3);
    expect(await p.balance()).toBe(1 + 10 - 3);
    expect((await p.call('POST', `/v1/datasets/${datasetId}/vectorize`)).status).toBe(400);
  });

  it('4.8, 7: vectorizing needs a Read & write key and a dataset of this workspace', async () => {
    const { datasetId } = await api.ingest('/v1/extract', ['mine']);
    expect((await api.call('POST', `/v1/datasets/${datasetId}/vectorize`, ws.readKey)).status).toBe(403);
    const other = v1(h, await h.workspace());
    const r = await other.call('POST', `/v1/datasets/${datasetId}/vectorize`);
    expect(r.status).toBe(404);
    expect(r.body).toEqual({ success: false, error: expect.any(String) });
    expect((await api.call('POST', '/v1/datasets/ds_nope/vectorize')).status).toBe(404);
  });
});

describe('v1 vectorize while a job is unfinished (no worker)', () => {
  let h: Harness;

  beforeAll(async () => {
    h = await startHarness();
  });
  afterAll(() => h?.close());

  it('4.8: asking twice at once while a vectorize job is unfinished gives that one job, not a second', async () => {
    const ws = await h.workspace();
    const p = v1(h, ws);
    const up = await p.upload('/v1/extract', { file: { data: await makeTextPdf([['a']]), name: 'a.pdf' } });
    const datasetId = up.body.data.datasetId;
    const [a, b] = await Promise.all([
      p.call('POST', `/v1/datasets/${datasetId}/vectorize`),
      p.call('POST', `/v1/datasets/${datasetId}/vectorize`),
    ]);
    expect([a.status, b.status]).toEqual([200, 200]);
    expect(a.body.data).toMatchObject({ type: 'datasets/vectorize', status: 'IN_PROGRESS', datasetId });
    expect(b.body.data.id).toBe(a.body.data.id);
    const jobs = (await p.call('GET', '/v1/jobs')).body.data;
    expect(jobs.map((j: Json) => j.type).sort()).toEqual(['datasets/extract', 'datasets/vectorize']);
  });
});
