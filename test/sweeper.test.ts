import { readdir } from 'node:fs/promises';
import path from 'node:path';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { originalKey } from '../src/ingest/keys.ts';
import { sweepExpired } from '../src/ingest/purge.ts';
import { type RunningWorker, runWorker } from '../src/start/worker.ts';
import { type Harness, startHarness, type TestWorkspace } from './helpers/harness.ts';
import { type Json, until, api as v2api } from './helpers/runs.ts';
import { seedFiles } from './helpers/seed.ts';
import { v1 } from './helpers/v1.ts';

const CONTRACT = ['This Agreement is effective as of March 3, 2021 between Acme Corp and Beta LLC.'];

const rowsOf = async (h: Harness, fileId: string) => {
  const count = async (table: string) =>
    (
      await h.db.query<{ n: number }>(
        `SELECT count(*)::int AS n FROM ${table} WHERE ${table === 'files' ? 'id' : 'file_id'} = $1`,
        [fileId],
      )
    )[0].n;
  return { files: await count('files'), items: await count('file_items'), pages: await count('file_pages') };
};

const waitPurged = (h: Harness, fileId: string) =>
  until(`purge of ${fileId}`, async () => ((await rowsOf(h, fileId)).files === 0 ? true : undefined));

// interface.md 3.4 (expiry, v1 DELETE, background hard delete), 8 (background deletion); decisions.md D8.
describe('expiry sweeper', () => {
  let h: Harness;
  let ws: TestWorkspace;
  let api: ReturnType<typeof v1>;

  beforeAll(async () => {
    h = await startHarness({}, { worker: true });
    ws = await h.workspace({ credits: 500 });
    api = v1(h, ws);
  });
  afterAll(() => h?.close());

  const blobFolder = (fileId: string) =>
    path.join((h.config.blob as { rootDir: string }).rootDir, 'files', fileId);
  const onDisk = (fileId: string) => readdir(blobFolder(fileId), { recursive: true }).catch(() => []);

  it('3.4, D8: an expired dataset and one deleted through v1 are hard-deleted: page bytes on disk, items, pages and file rows', async () => {
    const expired = (await api.ingest('/v1/extract', ['expired one', 'expired two'])).datasetId;
    const deleted = (await api.ingest('/v1/extract', ['deleted one'])).datasetId;
    const live = await api.ingest('/v1/extract', ['live one', 'live two'], 'live.pdf');
    for (const id of [expired, deleted, live.datasetId]) expect((await onDisk(id)).length).toBeGreaterThan(3);
    await h.db.query('UPDATE files SET expires_at = $2 WHERE id = $1', [expired, Date.now() - 1000]);
    expect((await api.call('DELETE', `/v1/datasets/${deleted}`)).status).toBe(200);
    // Marked, not yet removed: nothing happens until the sweeper runs.
    expect((await rowsOf(h, deleted)).pages).toBe(1);

    // The worker's own timed sweep may claim them first; either way each is claimed once.
    await sweepExpired(h.db, Date.now());
    expect(await sweepExpired(h.db, Date.now())).toBe(0);
    for (const id of [expired, deleted]) {
      await waitPurged(h, id);
      expect(await rowsOf(h, id)).toEqual({ files: 0, items: 0, pages: 0 });
      expect(await onDisk(id)).toEqual([]);
    }
    expect(await rowsOf(h, live.datasetId)).toEqual({ files: 1, items: 6, pages: 2 });
    expect((await onDisk(live.datasetId)).length).toBeGreaterThan(3);
    expect((await api.call('GET', `/v1/datasets/${live.datasetId}/items`)).body.total).toBe(6);
    // The job records stay readable by id; the dataset they name is gone.
    expect((await api.call('GET', `/v1/jobs/${live.job.id}`)).status).toBe(200);
  });

  it('D8: table rows, bundle members and cell facts naming a purged file do not block its hard delete; runs skip it', async () => {
    const tables = v2api(h, ws);
    const doomed = (await api.ingest('/v1/extract', CONTRACT, 'doomed.pdf')).datasetId;
    const kept = (await api.ingest('/v1/extract', CONTRACT, 'kept.pdf')).datasetId;
    const t = await tables.table('purge');
    await tables.column(t, { prompt: 'What is the effective date?', outputType: 'date' });
    const fileRow = await tables.fileRow(t, doomed);
    const { rowId: bundleRow, bundleId } = await tables.bundleRow(t, [doomed, kept]);
    const first = await tables.must('POST', `/tables/${t}/runs`, {});
    await tables.waitRun(t, first.run.id);
    const facts = await h.db.query('SELECT id FROM cell_facts WHERE file_id = $1', [doomed]);
    expect(facts.length).toBeGreaterThan(0);

    expect((await api.call('DELETE', `/v1/datasets/${doomed}`)).status).toBe(200);
    await sweepExpired(h.db, Date.now());
    await waitPurged(h, doomed);
    expect(await onDisk(doomed)).toEqual([]);

    // What named the file is kept as history: the row, the bundle membership, the answers.
    const rows = await tables.must('GET', `/tables/${t}/rows`);
    expect(rows.map((r: Json) => r.id).sort()).toEqual([fileRow, bundleRow].sort());
    const bundle = await tables.must('GET', `/bundles/${bundleId}`);
    expect(bundle.files.map((m: Json) => m.fileId).sort()).toEqual([doomed, kept].sort());
    expect((await tables.cells(t)).every((c: Json) => c.status === 'SUCCESS')).toBe(true);
    // A run skips the row of the purged file and reads the bundle's remaining member.
    const preview = (await tables.preview(t)).body.data;
    expect(preview.skippedRowIds).toEqual([fileRow]);
    const again = await tables.must('POST', `/tables/${t}/runs`, {});
    expect(again.skippedRowIds).toEqual([fileRow]);
    expect((await tables.waitRun(t, again.run.id)).status).toBe('SUCCESS');
  });

  it('D8: every foreign key to files cascades, so nothing that names a file can block its hard delete', async () => {
    const fks = await h.db.query<{ table: string; action: string }>(
      `SELECT conrelid::regclass::text AS table, confdeltype AS action
         FROM pg_constraint WHERE contype = 'f' AND confrelid = 'files'::regclass`,
    );
    expect(fks.length).toBeGreaterThanOrEqual(2);
    expect(fks.filter((fk) => fk.action !== 'c')).toEqual([]);
  });
});

// Several API or worker processes may sweep at the same moment; each file is claimed once.
describe('concurrent sweeps', () => {
  let h: Harness;
  let ws: TestWorkspace;
  const workers: RunningWorker[] = [];

  beforeAll(async () => {
    h = await startHarness();
    ws = await h.workspace();
  });
  afterAll(async () => {
    await Promise.all(workers.map((w) => w.stop()));
    await h?.close();
  });

  it('3.4: sweeps in batches, one transaction per batch, until every expired file is claimed', async () => {
    const ids = await seedFiles(h.db, ws.id, 7);
    await h.db.query('UPDATE files SET expires_at = $2 WHERE id = ANY($1::text[])', [ids, Date.now() - 1]);
    expect(await sweepExpired(h.db, Date.now(), 2)).toBe(7);
    expect(await sweepExpired(h.db, Date.now(), 2)).toBe(0);
    const tasks = await h.db.query<{ ref_id: string }>(
      "SELECT ref_id FROM tasks WHERE kind = 'file.purge' AND ref_id = ANY($1::text[])",
      [ids],
    );
    expect(tasks.map((t) => t.ref_id).sort()).toEqual([...ids].sort());
    for (const id of ids)
      expect((await h.db.query('SELECT deleted_at FROM files WHERE id = $1', [id]))[0]).toEqual({
        deleted_at: expect.any(Number),
      });
  });

  it('3.4, D8: concurrent sweeps claim each expired file exactly once and two workers purge them all', async () => {
    const ids = await seedFiles(h.db, ws.id, 30);
    const live = await seedFiles(h.db, ws.id, 2);
    for (const id of ids)
      await h.blobs.put(originalKey(id), Buffer.from(`bytes of ${id}`), { contentType: 'application/pdf' });
    await h.db.query('UPDATE files SET expires_at = $2 WHERE id = ANY($1::text[])', [ids, Date.now() - 1]);
    await h.db.query('UPDATE files SET expires_at = $2 WHERE id = ANY($1::text[])', [
      live,
      Date.now() + 60_000,
    ]);

    const now = Date.now();
    const counts = await Promise.all([1, 2, 3].map(() => sweepExpired(h.db, now, 4)));
    expect(counts.reduce((a, b) => a + b, 0)).toBe(30);
    const tasks = await h.db.query<{ ref_id: string }>(
      "SELECT ref_id FROM tasks WHERE kind = 'file.purge' AND ref_id = ANY($1::text[])",
      [ids],
    );
    expect(tasks.map((t) => t.ref_id).sort()).toEqual([...ids].sort());

    for (let i = 0; i < 2; i++) {
      workers.push(
        runWorker(
          {
            config: h.config,
            db: h.db,
            shareSecret: h.shareSecret,
            blobs: h.blobs,
            shutdown: async () => {},
          },
          pino({ level: 'silent' }),
        ),
      );
    }
    await until('both workers to purge', async () => {
      const left = await h.db.query<{ n: number }>('SELECT count(*)::int AS n FROM tasks WHERE kind = $1', [
        'file.purge',
      ]);
      return left[0].n === 0 ? true : undefined;
    });
    const remaining = await h.db.query<{ id: string }>('SELECT id FROM files WHERE workspace_id = $1', [
      ws.id,
    ]);
    expect(remaining.map((r) => r.id).sort()).toEqual([...live].sort());
    for (const id of ids) expect(await h.blobs.stat(originalKey(id))).toBeNull();
  });
});
