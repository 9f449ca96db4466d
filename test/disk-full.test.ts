/**
 * Issue 15, F6: a full disk. Uploads answer 507 with a plain message and no server path;
 * no job statusText names a path; a job failing on a full disk waits and retries, and
 * succeeds once space frees; /healthz says degraded (still 200) below DISK_FREE_MIN_MB;
 * search answers 503 when its metering write fails (interface.md section 7).
 *
 * The full disk is real where the machine allows it: a small tmpfs mounted as DATA_DIR
 * (root with CAP_SYS_ADMIN, as on CI) and filled up, so every write in the upload and
 * ingest path meets the kernel's own ENOSPC. Elsewhere those cases are skipped, and the
 * errors are still checked as the kernel makes them, writing to /dev/full.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmdirSync } from 'node:fs';
import { open, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  isOutOfStorage,
  isTransientResourceError,
  OUT_OF_STORAGE_MESSAGE,
  withoutServerPaths,
} from '../src/domain/errors.ts';
import { failureText, retryingText } from '../src/ingest/ingest-job.ts';
import { type RunningWorker, runWorker } from '../src/start/worker.ts';
import { makeTextPdf } from './fixtures/pdf.ts';
import { type Harness, startHarness, type TestWorkspace } from './helpers/harness.ts';
import { ingestText } from './helpers/runs.ts';

/**
 * A real ENOSPC from the kernel: a write to /dev/full. Opened without O_CREAT or O_TRUNC,
 * and never as a copy's destination: a failed copy unlinks its destination, which would
 * take the device node away.
 */
async function kernelEnospc(): Promise<NodeJS.ErrnoException> {
  const fh = await open('/dev/full', 'r+');
  try {
    await fh.write(Buffer.from('some bytes'));
  } catch (err) {
    return err as NodeJS.ErrnoException;
  } finally {
    await fh.close();
  }
  throw new Error('/dev/full accepted a write');
}

/** No absolute path in the text: nothing like ` /tmp/...`, `'/srv/...'` or a file: URL. */
const SERVER_PATH = /(^|[\s'"(=[{<,;])\/[^\s/]|file:\/\//;

describe('resource errors as the kernel makes them (/dev/full)', () => {
  it('are recognised as a full disk and worded without the paths Node puts in them', async () => {
    const err = await kernelEnospc();
    expect(err.code).toBe('ENOSPC');
    expect(isOutOfStorage(err)).toBe(true);
    expect(isTransientResourceError(err)).toBe(true);
    // Wrapped, as streams and SDKs do, it is still a full disk.
    expect(isOutOfStorage(new Error('upload failed', { cause: err }))).toBe(true);
    expect(retryingText(err)).toBe('The server ran out of storage space; the job will be retried.');
    expect(failureText(err, 16)).toBe(
      'Processing failed after 16 attempts: the server ran out of storage space. Upload the file again later.',
    );
    const other = Object.assign(new Error(`EACCES: permission denied, open '/srv/folio/blobs/x'`), {
      code: 'EACCES',
    });
    expect(isTransientResourceError(other)).toBe(false);
    expect(failureText(other)).toBe("Processing failed: EACCES: permission denied, open '[path]'");
  });

  it('strips absolute paths and file: URLs, and leaves URLs, MIME types and part names alone', () => {
    expect(
      withoutServerPaths(
        'convert /tmp/w/folio-1.xlsx -> /tmp/w/folio-1.pdf (file:///tmp/w/profile) see https://example.com/a/b, xl/worksheets/sheet1.xml, application/pdf, 1 / 2',
      ),
    ).toBe(
      'convert [path] -> [path] ([path]) see https://example.com/a/b, xl/worksheets/sheet1.xml, application/pdf, 1 / 2',
    );
  });
});

describe('/healthz and free disk space', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness({ DISK_FREE_MIN_MB: '100000000' });
  });
  afterAll(() => h?.close());

  it('says degraded, still with 200, naming the reason but no path, below DISK_FREE_MIN_MB', async () => {
    const r = await h.request('GET', '/healthz');
    expect(r.statusCode).toBe(200);
    const data = r.json().data;
    expect(data).toMatchObject({ status: 'degraded', database: expect.any(String) });
    expect(data.reason).toMatch(
      /^low disk space: \d+ MB free in the data directory, below the 100000000 MB minimum/,
    );
    expect(r.body).not.toContain(h.config.dataDir);
    expect(data.reason).not.toMatch(SERVER_PATH);
  });
});

describe('search metering that fails answers 503, not 500 (interface.md section 7)', () => {
  let h: Harness;
  let ws: TestWorkspace;
  beforeAll(async () => {
    h = await startHarness({}, { worker: true });
    ws = await h.workspace({ credits: 10 });
    await ingestText(h, ws, [['The governing law is the law of Delaware.']], 'law.pdf');
  }, 120_000);
  afterAll(() => h?.close());

  const balance = async () => (await h.admin('GET', `/admin/workspaces/${ws.id}`)).json().data.balance;
  const search = (headers: Record<string, string> = {}) =>
    h.request('POST', '/v1/search', { key: ws.readKey, body: { query: 'governing law' }, headers });

  it('when the database fails the charge: out of disk space (53100), or a race it reports as 409 elsewhere (40001)', async () => {
    for (const [sqlState, message] of [
      ['53100', 'could not extend file: No space left on device'],
      ['40001', 'could not serialize access due to concurrent update'],
    ]) {
      // What PostgreSQL raises, raised where the search's charge is written, so the real
      // metering code path meets it.
      await h.db.query(`CREATE FUNCTION folio_test_refuse() RETURNS trigger LANGUAGE plpgsql AS $$
        BEGIN RAISE EXCEPTION '${message}' USING ERRCODE = '${sqlState}'; END $$`);
      await h.db.query(`CREATE TRIGGER folio_test_refuse BEFORE INSERT ON search_requests
        FOR EACH ROW EXECUTE FUNCTION folio_test_refuse()`);
      const before = await balance();
      const idempotencyKey = `refused-${sqlState}`;
      try {
        for (const headers of [{}, { 'idempotency-key': idempotencyKey }] as Record<string, string>[]) {
          const r = await search(headers);
          expect(r.statusCode).toBe(503);
          expect(r.json()).toEqual({
            success: false,
            error: 'Search metering is unavailable right now; nothing was charged. Retry the request.',
          });
        }
      } finally {
        await h.db.query('DROP TRIGGER folio_test_refuse ON search_requests');
        await h.db.query('DROP FUNCTION folio_test_refuse()');
      }
      expect(await balance()).toBe(before);
      const retry = await search({ 'idempotency-key': idempotencyKey });
      expect(retry.statusCode).toBe(200);
      expect(await balance()).toBe(before - 1);
    }
  });

  it('when the metering table cannot be read or written at all', async () => {
    await h.db.query('ALTER TABLE search_requests RENAME TO search_requests_away');
    const before = await balance();
    try {
      for (const headers of [{}, { 'idempotency-key': 'gone-1' }] as Record<string, string>[]) {
        const r = await search(headers);
        expect(r.statusCode).toBe(503);
        expect(r.json().error).toMatch(/^Search metering is unavailable/);
      }
    } finally {
      await h.db.query('ALTER TABLE search_requests_away RENAME TO search_requests');
    }
    expect(await balance()).toBe(before);
  });
});

/** Mounts a tmpfs of `mb` MB; null when this machine does not let us (not root, no CAP_SYS_ADMIN). */
function mountTmpfs(mb: number): string | null {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'folio-tmpfs-'));
  try {
    execFileSync('mount', ['-t', 'tmpfs', '-o', `size=${mb}m,mode=0700`, 'folio-test', dir], {
      stdio: 'ignore',
    });
    return dir;
  } catch {
    rmdirSync(dir);
    return null;
  }
}

const tmpfs = process.platform === 'linux' ? mountTmpfs(16) : null;

describe.skipIf(tmpfs === null)('a really full disk (a small tmpfs as DATA_DIR, filled up)', () => {
  let h: Harness;
  let ws: TestWorkspace;
  let worker: RunningWorker | null = null;
  const dataDir = tmpfs!;
  const filler = path.join(dataDir, 'filler');

  /** Writes until the kernel says ENOSPC. */
  async function fillDisk(): Promise<void> {
    const fh = await open(filler, 'a');
    const chunk = Buffer.alloc(256 * 1024, 1);
    try {
      for (;;) {
        try {
          await fh.write(chunk);
        } catch (err) {
          if ((err as NodeJS.ErrnoException).code !== 'ENOSPC') throw err;
          // The last partial block: fill it byte-wise so even a tiny write fails.
          for (let size = 4096; size >= 1; size = Math.floor(size / 2)) {
            try {
              while (true) await fh.write(Buffer.alloc(size, 1));
            } catch {}
          }
          return;
        }
      }
    } finally {
      await fh.close();
    }
  }
  const freeDisk = () => rm(filler, { force: true });

  beforeAll(async () => {
    h = await startHarness({ DATA_DIR: dataDir, DISK_FREE_MIN_MB: '1' });
    ws = await h.workspace({ credits: 20 });
  });
  afterAll(async () => {
    await worker?.stop();
    await h?.close();
    execFileSync('umount', [dataDir]);
    rmdirSync(dataDir);
  });

  it('an upload answers 507 with a plain message and no path, and works again once space frees', async () => {
    const pdf = await makeTextPdf([['Disk full upload']]);
    await fillDisk();
    try {
      const r = await h.upload(ws, { file: { data: pdf, name: 'full.pdf' } });
      const body = await r.text();
      expect(r.status).toBe(507);
      expect(JSON.parse(body)).toEqual({ success: false, error: OUT_OF_STORAGE_MESSAGE });
      expect(body).not.toContain(dataDir);
      expect(body).not.toMatch(SERVER_PATH);
      const health = (await h.request('GET', '/healthz')).json().data;
      expect(health).toMatchObject({
        status: 'degraded',
        reason: expect.stringMatching(/^low disk space: 0 MB free/),
      });
    } finally {
      await freeDisk();
    }
    expect((await h.request('GET', '/healthz')).json().data).toEqual({
      status: 'ok',
      database: expect.any(String),
    });
    const again = await h.upload(ws, { file: { data: pdf, name: 'full.pdf' } });
    expect(again.status).toBe(200);
  });

  it('a job that meets a full disk waits and retries, with no path in its statusText, and succeeds once space frees', {
    timeout: 60_000,
  }, async () => {
    // Queued while the disk has room (no worker yet), then the disk fills before it runs.
    const pdf = await makeTextPdf([['Retried after the disk freed'], ['Second page']]);
    const r = await h.upload(ws, { file: { data: pdf, name: 'retry.pdf' } });
    expect(r.status).toBe(200);
    const jobId = ((await r.json()) as { data: { id: string } }).data.id;
    await fillDisk();
    worker = runWorker(
      { config: h.config, db: h.db, shareSecret: h.shareSecret, blobs: h.blobs, shutdown: async () => {} },
      pino({ level: 'silent' }),
    );
    const getJob = async () =>
      (await h.request('GET', `/v2/workspaces/${ws.id}/jobs/${jobId}`, { key: ws.key })).json().data;
    let job = await getJob();
    for (const started = Date.now(); job.statusText === null && Date.now() - started < 30_000; ) {
      await new Promise((res) => setTimeout(res, 100));
      job = await getJob();
    }
    expect(job).toMatchObject({
      status: 'IN_PROGRESS',
      statusText: 'The server ran out of storage space; the job will be retried.',
    });
    // The job's statusText is written as the attempt fails, the task's error just after, as the
    // runner hands the task back for its retry: wait for that too.
    const taskRow = () =>
      h.db.query<{ attempts: number; last_error: string | null }>(
        'SELECT attempts, last_error FROM tasks WHERE ref_id = $1',
        [jobId],
      );
    let task = await taskRow();
    for (const started = Date.now(); task[0].last_error === null && Date.now() - started < 10_000; ) {
      await new Promise((res) => setTimeout(res, 50));
      task = await taskRow();
    }
    expect(task[0].attempts).toBeGreaterThanOrEqual(1);
    expect(task[0].last_error).toMatch(/ENOSPC/);
    await freeDisk();
    const done = await h.waitJob(ws, jobId, 30_000);
    expect(done).toMatchObject({ status: 'SUCCESS', statusText: null });
    // Each page charged once, however many attempts it took.
    const charged = await h.db.query<{ amount: number }>(
      "SELECT amount FROM credit_ledger WHERE ref_id = $1 AND reason = 'ingest_page'",
      [jobId],
    );
    expect(charged).toEqual([{ amount: -1 }, { amount: -1 }]);
  });
});
