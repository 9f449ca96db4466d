import os from 'node:os';
import { setImmediate as yieldToLoop } from 'node:timers/promises';
import type { FastifyBaseLogger as Logger } from 'fastify';
import {
  type CellJob,
  type CellOutcome,
  claimCellJobs,
  finishCellJobs,
  handBackCells,
  renewCellLeases,
  settleStrayRuns,
} from '../domain/cell-work.ts';
import type { OutputType } from '../domain/columns.ts';
import type { Clock } from '../infra/clock.ts';
import type { Database } from '../infra/db/database.ts';
import { randomBase62 } from '../infra/ids.ts';
import { Waker } from '../infra/waker.ts';
import { PageCache } from './page-cache.ts';
import type { AnswerEngine, ColumnConfig, EnginePage, EngineSubject } from './types.ts';

export interface CellRunnerOptions {
  /** Batches answered at once by this process. */
  concurrency: number;
  /** Cells claimed per batch. */
  batch: number;
  leaseMs: number;
  pollMs: number;
  maxAttempts: number;
  log: Logger;
  /** Holds, leases, cell and run timestamps, and the month a charge counts against read this clock. */
  clock: Clock;
}

/**
 * Answers queued table cells: claims a batch (price checked and held), asks the engine for
 * each cell, and ends them (hold captured or released), renewing the lease meanwhile. Any
 * number of these, in any number of processes, share one database.
 */
export class CellRunner {
  private readonly workerId = `${os.hostname()}:${process.pid}:${randomBase62(6)}`;
  private readonly waker = new Waker();
  private readonly stopController = new AbortController();
  private readonly loops = new Set<Promise<void>>();
  private stopping = false;
  /** performance.now() of the last stray-run sweep: a pacing interval, not a time any rule reads. */
  private lastSweep = Number.NEGATIVE_INFINITY;

  private readonly db: Database;
  private readonly engine: AnswerEngine;
  private readonly opts: CellRunnerOptions;
  private readonly pages: PageCache;

  constructor(db: Database, engine: AnswerEngine, opts: CellRunnerOptions) {
    this.db = db;
    this.pages = new PageCache(db);
    this.engine = engine;
    this.opts = opts;
  }

  start(): void {
    for (let i = 0; i < this.opts.concurrency; i++) {
      const loop = this.loop();
      this.loops.add(loop);
      void loop.finally(() => this.loops.delete(loop));
    }
  }

  poke(): void {
    this.waker.wakeAll();
  }

  async stop(): Promise<void> {
    this.stopping = true;
    this.stopController.abort();
    this.waker.wakeAll();
    await Promise.allSettled([...this.loops]);
  }

  private async loop(): Promise<void> {
    while (!this.stopping) {
      let worked = false;
      try {
        worked = await this.runBatch();
        if (performance.now() - this.lastSweep > this.opts.pollMs * 20) {
          this.lastSweep = performance.now();
          await settleStrayRuns(this.db, this.opts.clock());
        }
      } catch (err) {
        if (!this.stopping) this.opts.log.error({ err }, 'answering cells failed');
      }
      if (!worked && !this.stopping) await this.waker.sleep(this.opts.pollMs);
    }
  }

  /** False when there was nothing to claim. */
  private async runBatch(): Promise<boolean> {
    const claimId = `${this.workerId}:${randomBase62(8)}`;
    const { jobs, claimed } = await claimCellJobs(
      this.db,
      {
        claimId,
        limit: this.opts.batch,
        leaseMs: this.opts.leaseMs,
        maxAttempts: this.opts.maxAttempts,
      },
      this.opts.clock,
    );
    if (jobs.length === 0) return claimed > 0;

    const lease = new AbortController();
    const signal = AbortSignal.any([lease.signal, this.stopController.signal]);
    const heartbeat = setInterval(
      () => {
        renewCellLeases(this.db, claimId, this.opts.leaseMs, this.opts.clock())
          .then((held) => held === 0 && lease.abort(new Error('lease lost')))
          .catch(() => {});
      },
      Math.max(100, Math.floor(this.opts.leaseMs / 3)),
    );
    try {
      const pages = await this.pages.load(jobs.flatMap((j) => j.documents.map((d) => d.file_id)));
      // All cells of the batch at once: the engine threads (or the model server) do the work.
      const answered = await Promise.all(jobs.map((job) => this.answer(job, pages, signal)));
      const outcomes = answered.filter((o): o is CellOutcome => o !== null);
      await finishCellJobs(this.db, claimId, outcomes, this.opts.clock);
      if (this.stopController.signal.aborted) {
        // Stopping: cells interrupted mid-answer go back to the queue; finished ones were charged above.
        const done = new Set(outcomes.map((o) => o.job.cellId));
        await handBackCells(
          this.db,
          claimId,
          jobs.filter((j) => !done.has(j.cellId)).map((j) => j.cellId),
          this.opts.clock(),
        );
      }
    } finally {
      clearInterval(heartbeat);
    }
    return true;
  }

  /** Null when the work was interrupted (stop, lease lost): nothing to record. */
  private async answer(
    job: CellJob,
    pages: Map<string, EnginePage[]>,
    signal: AbortSignal,
  ): Promise<CellOutcome | null> {
    await yieldToLoop(); // an engine on this thread is synchronous: let HTTP requests in between cells
    if (signal.aborted) return null;
    const subject: EngineSubject = {
      kind: job.subjectType,
      documents: job.documents.map((d) => ({
        fileId: d.file_id,
        fileName: d.file_name,
        pages: pages.get(d.file_id) ?? [],
        isPrimary: d.is_primary,
        role: d.role,
        effectiveAt: d.effective_at,
        sortOrder: d.sort_order,
      })),
    };
    try {
      const answer = await this.engine.answer(
        {
          prompt: job.column.prompt,
          outputType: job.column.outputType as OutputType,
          config: parseConfig(job.column.config),
          isCompositional: job.column.isCompositional,
          locale: job.column.locale,
        },
        subject,
        signal,
      );
      return { job, answer };
    } catch (err) {
      if (signal.aborted) return null;
      this.opts.log.warn({ err, cell: job.cellId }, 'engine failed on a cell');
      const statusText = `Extraction failed: ${(err as Error).message}`.slice(0, 500);
      return { job, answer: { status: 'ERROR', statusText, facts: [] } };
    }
  }
}

/** The column's config JSON as the engine takes it: an object, or null when absent or not one. */
export function parseConfig(config: string | null): ColumnConfig | null {
  if (!config) return null;
  try {
    const v: unknown = JSON.parse(config);
    return v !== null && typeof v === 'object' && !Array.isArray(v) ? (v as ColumnConfig) : null;
  } catch {
    return null;
  }
}
