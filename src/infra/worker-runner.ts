import type { FastifyBaseLogger } from 'fastify';

/** Both pino's Logger and Fastify's logger fit. */
type Logger = FastifyBaseLogger;

import type { Clock } from './clock.ts';
import type { Database } from './db/database.ts';
import { LeasedLoop } from './leased-loop.ts';
import {
  claimTask,
  completeTask,
  extendLease,
  failUnknownTasks,
  releaseTask,
  rescheduleTask,
  retryTask,
  type Task,
} from './queue.ts';
import { TASK_KINDS, type TaskKind } from './task-kinds.ts';

/** Retries back off exponentially up to this wait (a recurring task may retry for ever). */
const MAX_RETRY_DELAY_MS = 5 * 60 * 1000;

export interface TaskContext {
  /** Aborted when the lease is lost or the runner stops: stop work, write nothing more. */
  signal: AbortSignal;
  attempt: number;
  log: Logger;
}

export interface TaskHandler {
  run(refId: string, ctx: TaskContext): Promise<void>;
  /** A recurring task: after each successful run it is handed back to run again this much later. */
  repeatAfterMs?: number;
  /** After the last attempt failed: record the failure on the row the task points at. */
  giveUp?(refId: string, error: Error): Promise<void>;
  maxAttempts?: number;
}

/** The worker's handler table: one handler for every kind, or it does not compile. */
export type TaskHandlers = Readonly<Record<TaskKind, TaskHandler>>;

export interface RunnerOptions {
  concurrency: number;
  leaseMs: number;
  pollMs: number;
  log: Logger;
  /** Lease ends and retry times are written in this clock's time (the one every worker reads). */
  clock: Clock;
  /** Tasks one workspace may run at once across the deployment; 0 or unset: no cap. */
  perWorkspace?: number;
}

/**
 * The start-up check behind the `TaskHandlers` type (which a cast or plain JavaScript can
 * get round): every kind has a handler with a `run`, and no handler is filed under a kind
 * that does not exist. Throws naming what is wrong.
 */
export function checkTaskHandlers(
  handlers: Readonly<Record<string, unknown>>,
): asserts handlers is TaskHandlers {
  const missing = TASK_KINDS.filter((kind) => {
    const h = handlers[kind] as Partial<TaskHandler> | undefined;
    return typeof h?.run !== 'function';
  });
  if (missing.length > 0) {
    throw new Error(
      `Worker start-up: no handler for task kind${missing.length > 1 ? 's' : ''} ${missing.map((k) => `"${k}"`).join(', ')}; every TaskKind (src/infra/task-kinds.ts) needs one`,
    );
  }
  const unknown = Object.keys(handlers).filter((kind) => !(TASK_KINDS as readonly string[]).includes(kind));
  if (unknown.length > 0) {
    throw new Error(
      `Worker start-up: handler for unknown task kind ${unknown.map((k) => `"${k}"`).join(', ')}; add it to TASK_KINDS (src/infra/task-kinds.ts)`,
    );
  }
}

/**
 * Claims tasks and runs their handlers, `concurrency` at a time, renewing each lease while
 * the handler works (the shared LeasedLoop). Many runners (threads of many processes) can
 * share one database. Tasks of a kind with no handler are failed, never run.
 */
export class WorkerRunner {
  private readonly loop: LeasedLoop<Task>;
  private readonly db: Database;
  private readonly handlers: TaskHandlers;
  private readonly opts: RunnerOptions;

  constructor(db: Database, handlers: TaskHandlers, opts: RunnerOptions) {
    checkTaskHandlers(handlers);
    this.db = db;
    this.handlers = handlers;
    this.opts = opts;
    this.loop = new LeasedLoop<Task>(
      {
        claim: (workerId) => {
          const cap = opts.perWorkspace ?? 0;
          return cap > 0
            ? db.transaction((tx) => claimTask(tx, workerId, TASK_KINDS, opts.leaseMs, opts.clock(), cap))
            : claimTask(db, workerId, TASK_KINDS, opts.leaseMs, opts.clock());
        },
        renew: (task) => extendLease(db, task.id, this.workerId, opts.leaseMs, opts.clock()),
        run: (task, { signal, stopping }) => this.runTask(task, signal, stopping),
        sweep: { everyMs: opts.pollMs * 20, run: () => this.failUnknown() },
      },
      {
        concurrency: opts.concurrency,
        leaseMs: opts.leaseMs,
        pollMs: opts.pollMs,
        log: opts.log,
        errorMessage: 'claiming a task failed',
      },
    );
  }

  get workerId(): string {
    return this.loop.workerId;
  }

  start(): void {
    this.loop.start();
  }

  /** Ends the idle wait so new work is seen at once (same-process enqueue). */
  poke(): void {
    this.loop.poke();
  }

  /**
   * Stops claiming at once; running tasks get `graceMs` to finish, then are interrupted and
   * handed back (lease freed, attempt not counted) for the next worker. 0: interrupt at once.
   */
  stop(graceMs = 0): Promise<void> {
    return this.loop.stop(graceMs);
  }

  private async failUnknown(): Promise<void> {
    for (const task of await failUnknownTasks(this.db, TASK_KINDS, this.opts.clock())) {
      this.opts.log.error({ task: task.kind, ref: task.ref_id, id: task.id }, 'task of unknown kind failed');
    }
  }

  private async runTask(task: Task, signal: AbortSignal, stopping: AbortSignal): Promise<void> {
    const handler = (this.handlers as Readonly<Record<string, TaskHandler | undefined>>)[task.kind];
    const log = this.opts.log.child({ task: task.kind, ref: task.ref_id, attempt: task.attempts });
    if (!handler) {
      // Never claimed in practice (claimTask asks only for known kinds); fail it rather than spin.
      await this.failUnknown();
      return;
    }
    try {
      await handler.run(task.ref_id, { signal, attempt: task.attempts, log });
      if (handler.repeatAfterMs !== undefined) {
        await rescheduleTask(this.db, task.id, this.workerId, this.opts.clock() + handler.repeatAfterMs);
      } else {
        await completeTask(this.db, task.id, this.workerId);
      }
    } catch (err) {
      if (signal.aborted) {
        // Stopping: hand the task back now rather than leave it to its lease running out.
        // Lease lost: another worker owns it; the release matches no row.
        if (stopping.aborted) {
          await releaseTask(this.db, task.id, this.workerId).catch((e) =>
            log.warn({ err: e }, 'handing the task back failed; its lease will run out'),
          );
          log.info('task interrupted by shutdown and handed back');
        }
        return;
      }
      const error = err instanceof Error ? err : new Error(String(err));
      const max = handler.maxAttempts ?? 3;
      if (task.attempts >= max) {
        log.error({ err: error }, 'task failed for the last time');
        await handler.giveUp?.(task.ref_id, error).catch((e) => log.error({ err: e }, 'giveUp failed'));
        await completeTask(this.db, task.id, this.workerId).catch(() => {});
      } else {
        log.warn({ err: error }, 'task failed; will retry');
        await retryTask(
          this.db,
          task.id,
          this.workerId,
          Math.min(1000 * 2 ** task.attempts, MAX_RETRY_DELAY_MS),
          error.message,
          this.opts.clock(),
        ).catch(() => {});
      }
    }
  }
}
