import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RunningWorker, runWorker } from '../src/start/worker.ts';
import { makeLargeTextPdf, makeTextPdf } from './fixtures/pdf.ts';
import { type Harness, startHarness, type TestWorkspace } from './helpers/harness.ts';
import type { Json } from './helpers/runs.ts';
import { v1 } from './helpers/v1.ts';

const DAY = 86_400_000;
const ALL = ['NOT_STARTED', 'IN_QUEUE', 'IN_PROGRESS', 'SUCCESS', 'ERROR'];

// interface.md 4.9 (jobs list and get), 3.3 (job states), 2.11, 7, 8 (24 h retention), 9; decisions.md D7.
describe('v1 jobs', () => {
  let h: Harness;
  let ws: TestWorkspace;
  let api: ReturnType<typeof v1>;
  let worker: RunningWorker | null = null;
  // The clock of the API and of the worker the test starts: real time unless a test pins it.
  let pinned: number | null = null;
  const clock = () => pinned ?? Date.now();
  let v1Job: Json;
  let v2Job: Json;

  beforeAll(async () => {
    // No worker at first, so the jobs stay unfinished until the test starts one.
    h = await startHarness({}, { now: clock });
    ws = await h.workspace({ tier: 'starter', credits: 100 });
    api = v1(h, ws);
  });
  afterAll(async () => {
    await worker?.stop();
    await h?.close();
  });

  const list = async (query = '') => api.call('GET', `/v1/jobs${query}`);
  const ids = (r: { body: Json }) => r.body.data.map((j: Json) => j.id);

  it('4.9, 3.3, 9, D7: lists v1 and v2 jobs with v1 naming; unfinished jobs stay listed however old', async () => {
    const up1 = await api.upload('/v1/extract', {
      file: { data: await makeTextPdf([['one']]), name: 'a.pdf' },
    });
    v1Job = up1.body.data;
    const up2 = await h.upload(ws, { file: { data: await makeTextPdf([['two']]), name: 'b.pdf' } });
    v2Job = ((await up2.json()) as Json).data;
    expect(v1Job.status).toBe('IN_PROGRESS');
    expect(v2Job.status).toBe('NOT_STARTED');

    const r = await list();
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({
      success: true,
      statuses: ALL,
      sort: ['-createdAt'],
      total: 2,
      offset: 0,
      limit: 10,
    });
    expect(ids(r)).toEqual([v2Job.id, v1Job.id]);
    expect(r.body.data[0]).toEqual({
      id: v2Job.id,
      datasetId: v2Job.fileId,
      type: 'datasets/extract',
      status: 'NOT_STARTED',
      statusText: null,
      startedAt: null,
      finishedAt: null,
      canceledAt: null,
      createdAt: v2Job.createdAt,
      updatedAt: expect.any(Number),
    });
    expect(r.body.data[1]).toMatchObject({ id: v1Job.id, datasetId: v1Job.datasetId, status: 'IN_PROGRESS' });

    pinned = Date.now() + 30 * DAY;
    expect(ids(await list())).toEqual([v2Job.id, v1Job.id]);
    pinned = null;
  });

  it('4.9, 7, 8: filters by statuses (400 on an unknown one), pages, sorts and clamps limit to 100', async () => {
    const started = await list('?statuses=IN_PROGRESS,SUCCESS');
    expect(started.body).toMatchObject({ statuses: ['IN_PROGRESS', 'SUCCESS'], total: 1 });
    expect(ids(started)).toEqual([v1Job.id]);
    expect(ids(await list('?statuses=NOT_STARTED'))).toEqual([v2Job.id]);
    expect((await list('?statuses=IN_QUEUE')).body).toMatchObject({
      statuses: ['IN_QUEUE'],
      total: 0,
      data: [],
    });

    const bad = await list('?statuses=IN_PROGRESS,DONE');
    expect(bad.status).toBe(400);
    expect(bad.body).toEqual({ success: false, error: expect.stringContaining('DONE') });

    const page = await list('?offset=1&limit=1');
    expect(page.body).toMatchObject({ offset: 1, limit: 1, total: 2 });
    expect(ids(page)).toEqual([v1Job.id]);
    const asc = await list('?sort=createdAt');
    expect(asc.body.sort).toEqual(['createdAt']);
    expect(ids(asc)).toEqual([v1Job.id, v2Job.id]);
    expect((await list('?limit=1000')).body.limit).toBe(100);

    const other = v1(h, await h.workspace());
    expect((await other.call('GET', '/v1/jobs')).body.total).toBe(0);
    const foreign = await other.call('GET', `/v1/jobs/${v1Job.id}`);
    expect(foreign.status).toBe(404);
    expect(foreign.body).toEqual({ success: false, error: expect.any(String) });
    expect((await h.request('GET', '/v1/jobs')).statusCode).toBe(401);
  });

  it('4.9, 8: SUCCESS and ERROR jobs drop from the list 24 hours after finishedAt and stay readable by id', async () => {
    // 101 pages is over the starter tier's pages per job: that job ends ERROR.
    const tooLong = await api.upload('/v1/extract', {
      file: { data: await makeLargeTextPdf(101), name: 'long.pdf' },
    });
    worker = runWorker(
      { config: h.config, db: h.db, shareSecret: h.shareSecret, blobs: h.blobs, shutdown: async () => {} },
      pino({ level: 'silent' }),
      clock,
    );
    const finished = [
      await api.waitJob(v1Job.id),
      await api.waitJob(v2Job.id),
      await api.waitJob(tooLong.body.data.id),
    ];
    expect(finished.map((j) => j.status)).toEqual(['SUCCESS', 'SUCCESS', 'ERROR']);
    expect(finished[2].statusText).toMatch(/pages/);
    const ended = finished.map((j) => j.finishedAt as number);
    const finishedIds = finished.map((j) => j.id);
    expect(ids(await list('?statuses=SUCCESS,ERROR')).sort()).toEqual([...finishedIds].sort());

    // A minute before the first one's 24 hours are up, all three are listed; at 24 hours it drops.
    const first = Math.min(...ended);
    const last = Math.max(...ended);
    pinned = first + DAY - 60_000;
    expect(ids(await list()).sort()).toEqual([...finishedIds].sort());
    pinned = last + DAY - 1;
    expect(ids(await list())).toEqual(finishedIds.filter((_, i) => ended[i] === last));
    pinned = last + DAY;
    const none = await list();
    expect(none.body).toMatchObject({ total: 0, data: [] });

    // Readable by id for good, with datasetId.
    for (const j of finished) {
      const r = await api.call('GET', `/v1/jobs/${j.id}`);
      expect(r.status).toBe(200);
      expect(r.body.data).toMatchObject({
        id: j.id,
        datasetId: j.datasetId,
        status: j.status,
        finishedAt: j.finishedAt,
      });
    }
    // An unfinished job is still listed at that time.
    const fresh = await api.upload('/v1/extract', {
      file: { data: await makeTextPdf([['new']]), name: 'n.pdf' },
    });
    expect(ids(await list())).toContain(fresh.body.data.id);
    // Its task was queued at the pinned time, which the worker reads too (issue 14: one clock).
    expect((await api.waitJob(fresh.body.data.id)).status).toBe('SUCCESS');
    pinned = null;
  });
});
