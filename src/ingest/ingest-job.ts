import { mkdir, rm } from 'node:fs/promises';
import path from 'node:path';
import { isOutOfStorage, isTransientResourceError, withoutServerPaths } from '../domain/errors.ts';
import { settleRuns } from '../domain/run-settle.ts';
import { runStandingTables } from '../domain/standing.ts';
import { TIER_LIMITS } from '../domain/tiers.ts';
import { emitEvent } from '../domain/webhooks.ts';
import { LocalBlobStore } from '../infra/blob/local.ts';
import type { BlobStore } from '../infra/blob/store.ts';
import type { Clock } from '../infra/clock.ts';
import type { OfficeLimits } from '../infra/config.ts';
import type { Database } from '../infra/db/database.ts';
import { countIngestJob, countIngestPages } from '../infra/metrics.ts';
import { type JobRow, repos, transaction } from '../infra/repos/index.ts';
import type { TaskContext, TaskHandler } from '../infra/worker-runner.ts';
import { type EmbeddingsClient, EmbeddingsError } from '../search/embeddings.ts';
import { hashMissingPages } from '../search/image-rank.ts';
import { vectorizeFile } from '../search/vectorize.ts';
import { pageKeys } from './keys.ts';
import { recognize } from './ocr.ts';
import { wordsJson } from './page-json.ts';
import type { PagePool } from './page-pool.ts';
import type { PageOutput } from './page-worker.ts';
import { preparePdf, UserFacingError } from './prepare-source.ts';
import { epochMs, PROFILING, processStages, reportJob, StageTimes } from './profile.ts';
import { type StoredPage, storePages } from './store-pages.ts';

export interface IngestDeps {
  db: Database;
  blobs: BlobStore;
  pool: PagePool;
  dataDir: string;
  renderDpi: number;
  officeTimeoutMs: number;
  /** Zip budget and rlimits of office conversions (the OFFICE_* settings). */
  officeLimits: OfficeLimits;
  /** Tells this process's cell runner that a standing table queued cells. */
  notifyWork?: () => void;
  /** Set: vectorize jobs also store page vectors (D6); unset, vectorize is extract. */
  embeddings?: EmbeddingsClient | null;
  /** Job, file, page, charge and run times, and the month a page's charge counts against. */
  clock: Clock;
}

/** Pages stored per transaction. */
const BATCH = 8;

const PAGE_TIMEOUT_MS = 60_000;

/** Attempts at a job that keeps failing on something other than the machine's resources. */
const MAX_ATTEMPTS = 3;
/**
 * Attempts at a job failing on a transient resource (a full disk, no file descriptors, no
 * memory, the database unavailable): the runner's backoff doubles from 2 s up to 5 min, so
 * these span about 45 minutes for an operator to free space before the job gives up.
 */
export const TRANSIENT_MAX_ATTEMPTS = 16;

/** The statusText of a job waiting to retry after a resource failure (it stays IN_PROGRESS). */
export function retryingText(err: unknown): string {
  return isOutOfStorage(err)
    ? 'The server ran out of storage space; the job will be retried.'
    : 'The server is short of resources right now; the job will be retried.';
}

/** The statusText of a job that failed for good on an unexpected error: plain, without server paths. */
export function failureText(err: Error, attempts?: number): string {
  const tries = attempts && attempts > 1 ? ` after ${attempts} attempts` : '';
  if (isOutOfStorage(err)) {
    return `Processing failed${tries}: the server ran out of storage space. Upload the file again later.`;
  }
  if (isTransientResourceError(err)) {
    return `Processing failed${tries}: the server was short of resources. Upload the file again later.`;
  }
  return `Processing failed: ${withoutServerPaths(err.message).slice(0, 300)}`;
}

/**
 * The ingest job: original bytes → PDF (office files through LibreOffice) → per page a
 * single-page PDF, a JPEG, a retrieval image and words with boxes (OCR when the page has no
 * text layer). Each page is stored, indexed and charged 1 credit in one transaction, so a
 * job resumed after a crash skips the pages it already has and never charges one twice.
 */
export function ingestHandler(deps: IngestDeps): TaskHandler {
  return {
    // The runner's count; failures not caused by resources end the job after MAX_ATTEMPTS below.
    maxAttempts: TRANSIENT_MAX_ATTEMPTS,
    async run(jobId, ctx) {
      try {
        await runIngest(deps, jobId, ctx);
      } catch (err) {
        if (ctx.signal.aborted) throw err;
        if (isTransientResourceError(err)) {
          // Thrown on to the runner, which retries with backoff; the job says why it waits.
          if (ctx.attempt < TRANSIENT_MAX_ATTEMPTS) await noteRetrying(deps, jobId, err).catch(() => {});
          throw err;
        }
        if (ctx.attempt < MAX_ATTEMPTS) throw err;
        const error = err instanceof Error ? err : new Error(String(err));
        ctx.log.error({ err: error }, 'ingest job failed for the last time');
        await finish(deps, jobId, 'ERROR', failureText(error));
      }
    },
    async giveUp(jobId, error) {
      await finish(deps, jobId, 'ERROR', failureText(error, TRANSIENT_MAX_ATTEMPTS));
    },
  };
}

/** The job stays IN_PROGRESS while it waits for its retry; its statusText says why. */
async function noteRetrying(deps: Pick<IngestDeps, 'db' | 'clock'>, jobId: string, err: unknown) {
  const job = await repos(deps.db).jobs.findJob(jobId);
  if (!job || job.status === 'SUCCESS' || job.status === 'ERROR') return;
  const now = deps.clock();
  await repos(deps.db).jobs.updateJob(jobId, { status_text: retryingText(err) }, now);
}

/**
 * Ends the job; a file that became ready joins its workspace's standing tables (D2) in the
 * same transaction. The file is ready when its pages are (`fileReady`, by default the job's
 * success); null leaves the file alone: a job that only added vectors to a ready file.
 */
async function finish(
  deps: Pick<IngestDeps, 'db' | 'notifyWork' | 'clock'>,
  jobId: string,
  status: 'SUCCESS' | 'ERROR',
  statusText: string | null,
  fileReady: boolean | null = status === 'SUCCESS',
): Promise<void> {
  let ended = false;
  const auto = await deps.db.transaction(async (tx) => {
    const job = await repos(tx).jobs.findJob(jobId, { forUpdate: true });
    if (!job || job.status === 'SUCCESS' || job.status === 'ERROR') return null;
    const now = deps.clock();
    // Whatever the message quotes (converter output, a library's error), no server path reaches the client.
    const text = statusText === null ? null : withoutServerPaths(statusText);
    await repos(tx).jobs.updateJob(jobId, { status, status_text: text, finished_at: now }, now);
    await emitEvent(
      tx,
      job.workspace_id,
      status === 'SUCCESS' ? 'job.succeeded' : 'job.failed',
      { jobId, fileId: job.file_id, type: job.type, status, statusText: text },
      now,
    );
    ended = true;
    if (fileReady === null) return null;
    const file = await repos(tx).files.findFileById(job.file_id, { forUpdate: true });
    if (!file) return null;
    // A later job on a ready file (v1 vectorize of an extracted dataset) leaves it ready and
    // must not run its standing tables again: that would charge their cells twice.
    if (file.state === 'ready') return null;
    await repos(tx).files.updateFile(file.id, { state: fileReady ? 'ready' : 'failed' }, now);
    return fileReady && file.deleted_at === null ? runStandingTables(tx, file, now) : null;
  });
  if (ended) countIngestJob(status === 'SUCCESS' ? 'success' : 'error');
  if (!auto) return;
  await settleRuns(deps.db, auto.superseded, deps.clock());
  if (auto.started.length > 0) deps.notifyWork?.();
}

async function runIngest(deps: IngestDeps, jobId: string, ctx: TaskContext): Promise<void> {
  const job = await repos(deps.db).jobs.findJob(jobId);
  if (!job || job.status === 'SUCCESS' || job.status === 'ERROR') return;
  const file = await repos(deps.db).files.findFileById(job.file_id);
  if (!file || file.deleted_at !== null) {
    await finish(deps, jobId, 'ERROR', 'The file was deleted before processing finished.');
    return;
  }
  const workspace = await repos(deps.db).workspaces.findWorkspace(job.workspace_id);
  if (!workspace) return;
  const now = deps.clock();
  await repos(deps.db).jobs.updateJob(
    jobId,
    { status: 'IN_PROGRESS', started_at: job.started_at ?? now },
    now,
  );
  // A vectorize job on a file already read (POST /v1/datasets/:id/vectorize) only adds vectors.
  if (job.type === 'vectorize' && file.state === 'ready') {
    await finishSearchIndex(deps, jobId, job.type, file.id, ctx.signal, false);
    return;
  }

  const workDir = path.join(deps.dataDir, 'work', jobId);
  await mkdir(workDir, { recursive: true });
  // The last batch's write, awaited before leaving whatever happened: a stop mid-page must
  // not leave a transaction running while the database closes.
  let storing: Promise<boolean> = Promise.resolve(true);
  try {
    const source = await preparePdf(deps, file, workspace.tier, workDir, ctx.signal);
    const pageCount = source.kind === 'image' ? 1 : source.pageCount;
    const allowed = TIER_LIMITS[workspace.tier].pagesPerJob;
    if (pageCount > allowed) {
      throw new UserFacingError(
        `The document has ${pageCount} pages; the ${workspace.tier} tier allows ${allowed} pages per job. Nothing was charged.`,
      );
    }
    if (pageCount === 0) throw new UserFacingError('The document has no pages.');

    const prof = new StageTimes();
    const started = performance.now();
    const cpuStart = PROFILING ? process.cpuUsage() : null;
    const mainCpuStart = PROFILING ? process.threadCpuUsage() : null;
    if (PROFILING) processStages.ms.fsync = 0;
    const done = await repos(deps.db).items.donePages(file.id);
    const todo = Array.from({ length: pageCount }, (_, i) => i + 1).filter((p) => !done.has(p));
    const localRoot = deps.blobs instanceof LocalBlobStore ? deps.blobs.root : null;
    const produce = async (page: number): Promise<StoredPage> => {
      // A page that hangs the renderer (decompression bombs, cycles) ends its thread, not the job queue.
      const signal = AbortSignal.any([ctx.signal, AbortSignal.timeout(PAGE_TIMEOUT_MS)]);
      const target = localRoot ? { root: localRoot, keys: pageKeys(file.id, page) } : undefined;
      let out: PageOutput;
      try {
        out =
          source.kind === 'image'
            ? await deps.pool.image(source.path, target, signal)
            : await deps.pool.page(source.path, page - 1, deps.renderDpi, target, signal);
      } catch (err) {
        if (ctx.signal.aborted) throw err;
        countIngestPages('error');
        const why = signal.aborted ? `took longer than ${PAGE_TIMEOUT_MS / 1000} s` : (err as Error).message;
        throw new UserFacingError(`Page ${page} could not be read: ${why}`);
      }
      // The store's failure (a full disk), not the page's: the job retries as if main had written it.
      if (out.storeError)
        throw Object.assign(new Error(out.storeError.message), { code: out.storeError.code });
      if (out.profile) {
        prof.add('transfer', epochMs() - out.profile.doneAt);
        prof.merge(out.profile.stages);
        delete out.profile;
      }
      return { ...(await prof.timeAsync('ocr', () => withOcr(out))), page };
    };

    // Render ahead on every thread, but store and charge strictly in page order, a batch
    // per transaction, so a balance that runs out leaves pages 1..n, not a scattering.
    // Storing a batch (fsync, one transaction) overlaps with rendering the next ones, so
    // the threads never wait for the disk.
    const window = 2 * BATCH + deps.pool.threads * 2;
    const inFlight = new Map<number, Promise<StoredPage>>();
    let next = 0;
    const fill = () => {
      while (next < todo.length && inFlight.size < window) {
        const p = todo[next++];
        const promise = produce(p);
        promise.catch(() => {}); // awaited below, in order
        inFlight.set(p, promise);
      }
    };
    const outOfCredits = async () => {
      const after = (await repos(deps.db).items.donePages(file.id)).size;
      return new UserFacingError(
        `Out of credits after ${after} of ${pageCount} pages; the pages already read are kept. Add credits and upload again for the rest.`,
      );
    };
    for (let i = 0; i < todo.length; i += BATCH) {
      const batch: StoredPage[] = [];
      for (const page of todo.slice(i, i + BATCH)) {
        fill();
        batch.push(await prof.timeAsync('wait', () => inFlight.get(page)!));
        inFlight.delete(page);
      }
      fill();
      if (!(await storing)) throw await outOfCredits();
      if (ctx.signal.aborted) throw ctx.signal.reason ?? new Error('aborted');
      storing = storePages(deps, job, file.id, batch, PROFILING ? prof : undefined).then(
        (n) => n === batch.length,
      );
      storing.catch(() => {}); // awaited on the next turn or below
    }
    if (!(await prof.timeAsync('wait', () => storing))) throw await outOfCredits();
    await prof.timeAsync('finish', () => finishSearchIndex(deps, jobId, job.type, file.id, ctx.signal, true));
    if (PROFILING) {
      prof.merge(processStages.ms);
      const cpu = process.cpuUsage(cpuStart ?? undefined);
      prof.add('cpu', (cpu.user + cpu.system) / 1000);
      prof.add('sys', cpu.system / 1000);
      const mainCpu = process.threadCpuUsage(mainCpuStart ?? undefined);
      prof.add('mainCpu', (mainCpu.user + mainCpu.system) / 1000);
      reportJob(jobId, todo.length, performance.now() - started, prof.ms);
    }
  } catch (err) {
    if (err instanceof UserFacingError) {
      await finish(deps, jobId, 'ERROR', err.message);
      return;
    }
    throw err;
  } finally {
    await storing.catch(() => false);
    await rm(workDir, { recursive: true, force: true });
  }
}

/**
 * After the pages: their look hashes (for picture queries; a failure only means search
 * hashes them later), then for a vectorize job with a provider their vectors. Pages stay
 * stored and charged whatever happens here; a provider failure ends the job ERROR with the
 * file still ready, and a later vectorize adds only the missing vectors.
 */
async function finishSearchIndex(
  deps: IngestDeps,
  jobId: string,
  type: JobRow['type'],
  fileId: string,
  signal: AbortSignal,
  filePages: boolean,
): Promise<void> {
  // Word counts for search weights, and look hashes; if either fails, search does it later.
  await transaction(deps.db, (r) => r.searchLexemes.countFileLexemes(fileId)).catch(() => false);
  await hashMissingPages(deps, [fileId], deps.clock()).catch(() => 0);
  if (type === 'vectorize' && deps.embeddings) {
    try {
      await vectorizeFile({ ...deps, embeddings: deps.embeddings }, fileId, signal);
    } catch (err) {
      if (!(err instanceof EmbeddingsError)) throw err;
      const text = `The pages are stored, but embedding them failed: ${err.message.slice(0, 300)}`;
      await finish(deps, jobId, 'ERROR', text, filePages ? true : null);
      return;
    }
  }
  await finish(deps, jobId, 'SUCCESS', null, filePages ? true : null);
}

async function withOcr(out: PageOutput): Promise<Omit<StoredPage, 'page'>> {
  const { ocrImage, ...rest } = out;
  if (!ocrImage) return { ...rest, ocr: false };
  const ocr = await recognize(ocrImage.data, ocrImage.width, ocrImage.height, ocrImage.dpi);
  if (ocr.words.length === 0) return { ...rest, ocr: false };
  return { ...rest, words: wordsJson(ocr.words), text: ocr.text, ocr: true };
}
