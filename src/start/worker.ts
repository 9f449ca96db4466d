import './lean-heap.ts';
import type { FastifyBaseLogger as Logger } from 'fastify';
import pino from 'pino';
import { PURGE_TASK } from '../domain/files.ts';
import { INGEST_TASK } from '../domain/jobs.ts';
import { WEBHOOK_TASK } from '../domain/webhooks.ts';
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
import { webhookHandler } from '../webhooks/deliver.ts';
import { type Booted, boot, exitOnStartupError, onShutdown } from './boot.ts';
import { closeWorkerMetrics, serveWorkerMetrics } from './worker-metrics.ts';

export interface RunningWorker {
  poke(): void;
  /**
   * Stops claiming at once; tasks and cell batches in flight get `graceMs` to finish, then are
   * interrupted and handed back (task leases freed, cells back to IN_QUEUE with their holds
   * released). 0: interrupt at once. Then the engine, page threads and OCR close.
   */
  stop(graceMs?: number): Promise<void>;
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
    [WEBHOOK_TASK]: webhookHandler({
      db,
      clock,
      masterSecret: booted.shareSecret,
      timeoutMs: config.webhookTimeoutMs,
      allowPrivate: config.webhookAllowPrivate,
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
    async stop(graceMs = 0) {
      await Promise.all([runner.stop(graceMs), cells.stop(graceMs)]);
      await engine.close?.();
      await pool.close();
      await closeOcr();
    },
  };
}

if (import.meta.main) {
  boot()
    .then(async (booted) => {
      const { config } = booted;
      const log = pino(loggerOptions(config.logLevel));
      const metrics =
        config.workerMetricsPort !== null && config.metricsToken !== null
          ? await serveWorkerMetrics({
              db: booted.db,
              host: config.host,
              port: config.workerMetricsPort,
              token: config.metricsToken,
              clock: systemClock,
              log,
            })
          : null;
      const worker = runWorker(booted, log);
      log.info(
        { concurrency: config.workerConcurrency, metricsPort: config.workerMetricsPort },
        'worker started',
      );
      onShutdown(log, config.shutdownGraceMs, async () => {
        await Promise.all([metrics && closeWorkerMetrics(metrics), worker.stop(config.shutdownGraceMs)]);
        await booted.shutdown();
      });
    })
    .catch(exitOnStartupError);
}
