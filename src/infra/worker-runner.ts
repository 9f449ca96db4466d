import os from 'node:os';
import type { FastifyBaseLogger } from 'fastify';

/** Both pino's Logger and Fastify's logger fit. */
type Logger = FastifyBaseLogger;

import type { Clock } from './clock.ts';
import type { Database } from './db/database.ts';
import { randomBase62 } from './ids.ts';
import { claimTask, completeTask, extendLease, retryTask, type Task } from './queue.ts';
import { Waker } from './waker.ts';

export interface TaskContext {
  /** Aborted when the lease is lost or the runner stops: stop work, write nothing more. */
  signal: AbortSignal;
  attempt: number;
  log: Logger;
}

export interface TaskHandler {
  run(refId: string, ctx: TaskContext): Promise<void>;
  /** After the last attempt failed: record the failure on the row the task points at. */
  giveUp?(refId: string, error: Error): Promise<void>;
  maxAttempts?: number;
}

export interface RunnerOptions {
  concurrency: number;
  leaseMs: number;
  pollMs: number;
  log: Logger;
  /** Lease ends and retry times are written in this clock's time (the one every worker reads). */
  clock: Clock;
}

/**
 * Claims tasks and runs their handlers, `concurrency` at a time, renewing each lease while
 * the handler works. Many runners (threads of many processes) can share one database.
 */
export class WorkerRunner {
  readonly workerId = `${os.hostname()}:${process.pid}:${randomBase62(6)}`;
  private stopping = false;
  private readonly active = new Set<Promise<void>>();
  private readonly stopController = new AbortController();
  private readonly waker = new Waker();
  private readonly db: Database;
  private readonly handlers: Readonly<Record<string, TaskHandler>>;
  private readonly opts: RunnerOptions;

  constructor(db: Database, handlers: Readonly<Record<string, TaskHandler>>, opts: RunnerOptions) {
    this.db = db;
    this.handlers = handlers;
    this.opts = opts;
  }

  start(): void {
    for (let i = 0; i < this.opts.concurrency; i++) {
      const loop = this.loop();
      this.active.add(loop);
      void loop.finally(() => this.active.delete(loop));
    }
  }

  /** Ends the idle wait so new work is seen at once (same-process enqueue). */
  poke(): void {
    this.waker.wakeAll();
  }

  async stop(): Promise<void> {
    this.stopping = true;
    this.stopController.abort();
    this.poke();
    await Promise.allSettled([...this.active]);
  }

  private async loop(): Promise<void> {
    const kinds = Object.keys(this.handlers);
    while (!this.stopping) {
      let task: Task | null = null;
      try {
        task = await claimTask(this.db, this.workerId, kinds, this.opts.leaseMs, this.opts.clock());
      } catch (err) {
        if (!this.stopping) this.opts.log.error({ err }, 'claiming a task failed');
      }
      if (task) await this.runTask(task);
      else await this.waker.sleep(this.opts.pollMs);
    }
  }

  private async runTask(task: Task): Promise<void> {
    const handler = this.handlers[task.kind];
    const log = this.opts.log.child({ task: task.kind, ref: task.ref_id, attempt: task.attempts });
    const lease = new AbortController();
    const signal = AbortSignal.any([lease.signal, this.stopController.signal]);
    const heartbeat = setInterval(
      () => {
        extendLease(this.db, task.id, this.workerId, this.opts.leaseMs, this.opts.clock())
          .then((held) => {
            if (!held) lease.abort(new Error('lease lost'));
          })
          .catch(() => {});
      },
      Math.max(100, Math.floor(this.opts.leaseMs / 3)),
    );
    try {
      await handler.run(task.ref_id, { signal, attempt: task.attempts, log });
      await completeTask(this.db, task.id, this.workerId);
    } catch (err) {
      if (signal.aborted) return; // another worker owns it now, or we are stopping: leave the row be
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
          1000 * 2 ** task.attempts,
          error.message,
          this.opts.clock(),
        ).catch(() => {});
      }
    } finally {
      clearInterval(heartbeat);
    }
  }
}
