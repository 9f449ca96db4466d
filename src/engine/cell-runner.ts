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
import { LeasedLoop } from '../infra/leased-loop.ts';
import { countCellsFinished, observeEngineCell } from '../infra/metrics.ts';
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

/** One claimed batch: the claim id its cells are leased under, and the jobs (none when every claimed cell was blocked). */
interface CellBatch {
  claimId: string;
  jobs: CellJob[];
}

/**
 * Answers queued table cells: claims a batch (price checked and held), asks the engine for
 * each cell, and ends them (hold captured or released), renewing the lease meanwhile (the
 * shared LeasedLoop). Any number of these, in any number of processes, share one database.
 */
export class CellRunner {
  private readonly loop: LeasedLoop<CellBatch>;
  private readonly db: Database;
  private readonly engine: AnswerEngine;
  private readonly opts: CellRunnerOptions;
  private readonly pages: PageCache;

  constructor(db: Database, engine: AnswerEngine, opts: CellRunnerOptions) {
    this.db = db;
    this.pages = new PageCache(db);
    this.engine = engine;
    this.opts = opts;
    this.loop = new LeasedLoop<CellBatch>(
      {
        claim: (workerId) => this.claim(workerId),
        renew: async (batch) => (await renewCellLeases(db, batch.claimId, opts.leaseMs, opts.clock())) > 0,
        run: (batch, { signal, stopping }) => this.runBatch(batch, signal, stopping),
        sweep: { everyMs: opts.pollMs * 20, run: () => settleStrayRuns(db, opts.clock()) },
      },
      {
        concurrency: opts.concurrency,
        leaseMs: opts.leaseMs,
        pollMs: opts.pollMs,
        log: opts.log,
        errorMessage: 'answering cells failed',
      },
    );
  }

  start(): void {
    this.loop.start();
  }

  poke(): void {
    this.loop.poke();
  }

  /**
   * Stops claiming at once; batches being answered get `graceMs` to finish (and be charged),
   * then the engine is interrupted and their unfinished cells go back to the queue with their
   * holds released (runBatch). 0: interrupt at once.
   */
  stop(graceMs = 0): Promise<void> {
    return this.loop.stop(graceMs);
  }

  /** Null when there was nothing to claim. */
  private async claim(workerId: string): Promise<CellBatch | null> {
    const claimId = `${workerId}:${randomBase62(8)}`;
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
    return claimed > 0 || jobs.length > 0 ? { claimId, jobs } : null;
  }

  private async runBatch(
    { claimId, jobs }: CellBatch,
    signal: AbortSignal,
    stopping: AbortSignal,
  ): Promise<void> {
    if (jobs.length === 0) return; // every claimed cell was blocked (credits, spend cap) and ended at claim
    const pages = await this.pages.load(jobs.flatMap((j) => j.documents.map((d) => d.file_id)));
    // All cells of the batch at once: the engine threads (or the model server) do the work.
    const answered = await Promise.all(jobs.map((job) => this.answer(job, pages, signal)));
    const outcomes = answered.filter((o): o is CellOutcome => o !== null);
    await finishCellJobs(this.db, claimId, outcomes, this.opts.clock);
    const succeeded = outcomes.filter((o) => o.answer.status === 'SUCCESS').length;
    countCellsFinished('success', succeeded);
    countCellsFinished('error', outcomes.length - succeeded);
    if (stopping.aborted) {
      // Stopping: cells interrupted mid-answer go back to the queue; finished ones were charged above.
      const done = new Set(outcomes.map((o) => o.job.cellId));
      await handBackCells(
        this.db,
        claimId,
        jobs.filter((j) => !done.has(j.cellId)).map((j) => j.cellId),
        this.opts.clock(),
      );
    }
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
    // Engine latency (performance.now(): a duration, not a clock any rule reads).
    const started = performance.now();
    const seconds = () => (performance.now() - started) / 1000;
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
      observeEngineCell(answer.status === 'SUCCESS' ? 'success' : 'error', seconds());
      return { job, answer };
    } catch (err) {
      if (signal.aborted) return null;
      observeEngineCell('error', seconds());
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
