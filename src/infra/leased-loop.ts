import os from 'node:os';
import type { FastifyBaseLogger } from 'fastify';
import { randomBase62 } from './ids.ts';
import { Waker } from './waker.ts';

/** Both pino's Logger and Fastify's logger fit. */
type Logger = FastifyBaseLogger;

/**
 * Where a leased loop gets its work: the tasks table (worker-runner.ts) or the cell queue
 * (engine/cell-runner.ts). Each source keeps its own SQL; the loop around it is shared.
 */
export interface LeasedSource<C> {
  /** Claims a unit of work under a lease held by `workerId`; null when there is nothing ready. */
  claim(workerId: string): Promise<C | null>;
  /** Renews the claim's lease; false when it was lost (another worker took the work over). */
  renew(claim: C): Promise<boolean>;
  /**
   * Does the work and finishes it (complete, retry, or hand back). `signal` aborts when the
   * lease is lost or the loop stops; `stopping` aborts only when the loop stops (once its
   * grace is over): the source then hands back what it holds, for another worker at once.
   */
  run(claim: C, ctx: { signal: AbortSignal; stopping: AbortSignal }): Promise<void>;
  /** Upkeep run by one of the loops about every `everyMs` (by performance.now(), a pacing interval). */
  sweep?: { everyMs: number; run(): Promise<void> };
}

export interface LeasedLoopOptions {
  /** Loops run at once in this process, each claiming and working one unit at a time. */
  concurrency: number;
  leaseMs: number;
  /** Idle wait between empty claims; poke() ends it early. */
  pollMs: number;
  log: Logger;
  /** Logged when a claim, a run or a sweep throws; the loop goes on. */
  errorMessage: string;
}

/**
 * The one worker loop: `concurrency` loops each poll (or are woken), claim with a lease,
 * renew the lease every leaseMs/3 while the source works, and stop politely (the signal
 * aborts, the source hands back or leaves what it holds). Any number of these, in any number
 * of processes, share one database.
 */
export class LeasedLoop<C> {
  readonly workerId = `${os.hostname()}:${process.pid}:${randomBase62(6)}`;
  private stopping = false;
  private readonly loops = new Set<Promise<void>>();
  private readonly stopController = new AbortController();
  private readonly waker = new Waker();
  /** performance.now() of the last sweep: a pacing interval, not a time any rule reads. */
  private lastSweep = Number.NEGATIVE_INFINITY;
  private readonly source: LeasedSource<C>;
  private readonly opts: LeasedLoopOptions;

  constructor(source: LeasedSource<C>, opts: LeasedLoopOptions) {
    this.source = source;
    this.opts = opts;
  }

  start(): void {
    for (let i = 0; i < this.opts.concurrency; i++) {
      const loop = this.loop();
      this.loops.add(loop);
      void loop.finally(() => this.loops.delete(loop));
    }
  }

  /** Ends the idle wait so new work is seen at once (same-process enqueue). */
  poke(): void {
    this.waker.wakeAll();
  }

  /**
   * Stops politely: no loop claims anything more (idle ones end at once); work already claimed
   * gets up to `graceMs` to finish, leases renewed meanwhile; then `signal` and `stopping`
   * abort and each source hands back what it still holds. Resolves when every loop has ended.
   */
  async stop(graceMs = 0): Promise<void> {
    this.stopping = true;
    this.waker.wakeAll();
    const ended = Promise.allSettled([...this.loops]);
    if (graceMs > 0 && this.loops.size > 0) {
      let timer: NodeJS.Timeout | undefined;
      await Promise.race([ended, new Promise<void>((resolve) => (timer = setTimeout(resolve, graceMs)))]);
      clearTimeout(timer);
    }
    this.stopController.abort();
    await ended;
  }

  private async loop(): Promise<void> {
    while (!this.stopping) {
      let worked = false;
      try {
        worked = await this.step();
        const sweep = this.source.sweep;
        if (sweep && performance.now() - this.lastSweep > sweep.everyMs) {
          this.lastSweep = performance.now();
          await sweep.run();
        }
      } catch (err) {
        if (!this.stopController.signal.aborted) this.opts.log.error({ err }, this.opts.errorMessage);
      }
      if (!worked && !this.stopping) await this.waker.sleep(this.opts.pollMs);
    }
  }

  /** False when there was nothing to claim. */
  private async step(): Promise<boolean> {
    const claim = await this.source.claim(this.workerId);
    if (claim === null) return false;
    const lease = new AbortController();
    const signal = AbortSignal.any([lease.signal, this.stopController.signal]);
    const heartbeat = setInterval(
      () => {
        this.source
          .renew(claim)
          .then((held) => {
            if (!held) lease.abort(new Error('lease lost'));
          })
          .catch(() => {});
      },
      Math.max(100, Math.floor(this.opts.leaseMs / 3)),
    );
    try {
      await this.source.run(claim, { signal, stopping: this.stopController.signal });
    } finally {
      clearInterval(heartbeat);
    }
    return true;
  }
}
