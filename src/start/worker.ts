import type { FastifyBaseLogger as Logger } from 'fastify';
import pino from 'pino';
import { PURGE_TASK } from '../domain/files.ts';
import { INGEST_TASK } from '../domain/jobs.ts';
import { CellRunner } from '../engine/cell-runner.ts';
import { openEngine } from '../engine/open.ts';
import { type Clock, systemClock } from '../infra/clock.ts';
import { loggerOptions, logSlowQueries } from '../infra/logger.ts';
import { ensureRecurringTask } from '../infra/queue.ts';
import { repos } from '../infra/repos/index.ts';
import { SWEEP_TASK } from '../infra/task-kinds.ts';
import { type TaskHandlers, WorkerRunner } from '../infra/worker-runner.ts';
import { ingestHandler } from '../ingest/ingest-job.ts';
import { closeOcr } from '../ingest/ocr.ts';
import { PagePool } from '../ingest/page-pool.ts';
import { purgeHandler } from '../ingest/purge.ts';
import { sweepHandler } from '../ingest/sweep-handler.ts';
import { EmbeddingsClient } from '../search/embeddings.ts';
import { type Booted, boot, exitOnStartupError, onShutdown } from './boot.ts';

export interface RunningWorker {
  poke(): void;
  stop(): Promise<void>;
}

/**
 * Claims queued tasks (ingest, purge) and table cells, and sweeps expired files; any number
 * may run. `clock` drives every time the worker reads or writes (leases, holds, expiry,
 * the month a spend counts against); tests pass the API's clock so one clock drives both.
 */
export function runWorker(booted: Booted, log: Logger, clock: Clock = systemClock): RunningWorker {
  const { config, db, blobs } = booted;
  logSlowQueries(config.slowQueryMs, log);
  const pool = new PagePool(config.ingestThreads);
  // One handler per TaskKind: a kind left out does not compile, and the runner checks again at start.
  const handlers: TaskHandlers = {
    [INGEST_TASK]: ingestHandler({
      db,
      blobs,
      pool,
      dataDir: config.dataDir,
      renderDpi: config.renderDpi,
      officeTimeoutMs: config.officeTimeoutMs,
      officeLimits: config.officeLimits,
      notifyWork: () => cells.poke(),
      embeddings: config.embeddings ? new EmbeddingsClient(config.embeddings) : null,
      clock,
    }),
    [PURGE_TASK]: purgeHandler({ db, blobs, clock }),
    [SWEEP_TASK]: sweepHandler({
      db,
      blobs,
      clock,
      uploadSessionIdleMs: config.uploadSessionIdleMs,
      everyMs: config.sweepIntervalMs,
      onPurgeQueued: () => runner.poke(),
    }),
  };
  const runner = new WorkerRunner(db, handlers, {
    concurrency: config.workerConcurrency,
    perWorkspace: config.workspaceTaskLimit,
    leaseMs: config.taskLeaseMs,
    pollMs: 500,
    log: log.child({ component: 'worker' }),
    clock,
  });
  const engine = openEngine(config, {
    threads: config.engineThreads,
    pageImage: async (fileId, page) => {
      const key = await repos(db).items.findPageImageKey(fileId, page);
      return key ? blobs.getBuffer(key) : null;
    },
  });
  // The local engine answers a cell in milliseconds, so batches save round trips. A model
  // server takes seconds per cell: claim one cell per call in flight, so a cancel finds every
  // cell not yet sent to the model still queued.
  const local = config.engine.kind === 'local';
  const cells = new CellRunner(db, engine, {
    concurrency: local ? config.runConcurrency : Math.max(config.runConcurrency, config.engine.concurrency),
    batch: local ? 16 : 1,
    leaseMs: config.taskLeaseMs,
    pollMs: 500,
    maxAttempts: 3,
    log: log.child({ component: 'cells' }),
    clock,
  });
  runner.start();
  cells.start();
  // The first beat soon after a start (a deployment that was down has catching up to do).
  ensureRecurringTask(db, SWEEP_TASK, clock(), clock() + Math.min(5_000, config.sweepIntervalMs))
    .then(() => runner.poke())
    .catch((err) => log.error({ err }, 'scheduling the sweep task failed'));
  return {
    poke: () => {
      runner.poke();
      cells.poke();
    },
    async stop() {
      await Promise.all([runner.stop(), cells.stop()]);
      await engine.close?.();
      await pool.close();
      await closeOcr();
    },
  };
}

if (import.meta.main) {
  boot()
    .then((booted) => {
      const log = pino(loggerOptions(booted.config.logLevel));
      const worker = runWorker(booted, log);
      log.info({ concurrency: booted.config.workerConcurrency }, 'worker started');
      onShutdown(log, async () => {
        await worker.stop();
        await booted.shutdown();
      });
    })
    .catch(exitOnStartupError);
}
