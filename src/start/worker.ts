import type { FastifyBaseLogger as Logger } from 'fastify';
import pino from 'pino';
import { PURGE_TASK } from '../domain/files.ts';
import { INGEST_TASK } from '../domain/jobs.ts';
import { sweepUploadSessions } from '../domain/upload-sessions.ts';
import { CellRunner } from '../engine/cell-runner.ts';
import { openEngine } from '../engine/open.ts';
import { type Clock, systemClock } from '../infra/clock.ts';
import { loggerOptions } from '../infra/logger.ts';
import { findPageImageKey } from '../infra/repos/items.ts';
import { type TaskHandlers, WorkerRunner } from '../infra/worker-runner.ts';
import { ingestHandler } from '../ingest/ingest-job.ts';
import { closeOcr } from '../ingest/ocr.ts';
import { PagePool } from '../ingest/page-pool.ts';
import { purgeHandler, sweepExpired } from '../ingest/purge.ts';
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
      notifyWork: () => cells.poke(),
      embeddings: config.embeddings ? new EmbeddingsClient(config.embeddings) : null,
      clock,
    }),
    [PURGE_TASK]: purgeHandler({ db, blobs, clock }),
  };
  const runner = new WorkerRunner(db, handlers, {
    concurrency: config.workerConcurrency,
    leaseMs: config.taskLeaseMs,
    pollMs: 500,
    log: log.child({ component: 'worker' }),
    clock,
  });
  const engine = openEngine(config, {
    threads: config.engineThreads,
    pageImage: async (fileId, page) => {
      const key = await findPageImageKey(db, fileId, page);
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
  const sweep = () => {
    // Idle upload sessions (4.8) are swept on the same beat as expired files.
    sweepUploadSessions({ db, blobs, clock }, config.uploadSessionIdleMs).catch((err) =>
      log.error({ err }, 'upload session sweep failed'),
    );
    return sweepExpired(db, clock())
      .then((n) => n > 0 && runner.poke())
      .catch((err) => log.error({ err }, 'expiry sweep failed'));
  };
  const sweeper = setInterval(sweep, config.sweepIntervalMs);
  const first = setTimeout(sweep, 5_000);
  return {
    poke: () => {
      runner.poke();
      cells.poke();
    },
    async stop() {
      clearInterval(sweeper);
      clearTimeout(first);
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
