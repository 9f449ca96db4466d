import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { Piscina } from 'piscina';
import { CANCELLED } from './page-slots.ts';
import type { InspectOutput, PageOutput, PageTarget, PageTask } from './page-worker.ts';
import { pdfiumModule } from './pdf/pdfium.ts';

const WORKER = path.join(path.dirname(fileURLToPath(import.meta.url)), 'page-worker.ts');

/** Slots of the shared table below; far more than tasks ever in flight at once. */
const SLOTS = 1 << 14;
/** A task whose thread was ended for another task's sake is run again, this many times. */
const RERUNS = 2;

/**
 * A bounded pool of worker threads for rendering and text extraction.
 *
 * Each thread holds several tasks: it starts the next one the moment the last lets go of
 * the document (page-worker.ts), instead of waiting for the main thread to hand it over.
 * That rules out piscina's abortable tasks, which it never gives a thread two of (each
 * thread then sat idle between pages). So the pool ends a hung task's thread itself: every task
 * has a slot in a table shared with the threads, where the thread that takes it writes its
 * id. An abort (the page timeout, or the job's end) ends that thread, or marks a task not
 * taken yet so that it is dropped; a task that only shared the ended thread runs again.
 */
export class PagePool {
  private readonly pool: Piscina;
  private readonly slots = new Int32Array(new SharedArrayBuffer(4 * SLOTS));
  private nextSlot = 0;
  private readonly ended = new Set<number>();
  private closing = false;

  constructor(threads: number) {
    this.pool = new Piscina({
      filename: WORKER,
      // The compiled PDFium, shared: threads start with the optimised code of those before them.
      workerData: { slots: this.slots, pdfiumModule: pdfiumModule() },
      minThreads: 0,
      maxThreads: threads,
      idleTimeout: 30_000,
      // Each thread holds one open document and its WASM heap; keep the queue, not the threads,
      // long. Every job bounds the pages it has in flight, so the queue needs no cap of its own.
      maxQueue: Number.POSITIVE_INFINITY,
      // Three: while one page waits for its encodes and fsyncs and the next one draws, the
      // third is already there (bench:ingest: threads idle 6.7 -> 2.5 ms per page).
      concurrentTasksPerWorker: 3,
      // Page bytes live outside the JS heap; a small young generation keeps each thread lean.
      resourceLimits: { maxYoungGenerationSizeMb: 8, maxOldGenerationSizeMb: 256 },
    });
  }

  get threads(): number {
    return this.pool.options.maxThreads;
  }

  inspect(pdfPath: string, signal?: AbortSignal): Promise<InspectOutput> {
    return this.run({ op: 'inspect', pdfPath, slot: 0 }, signal);
  }

  page(
    pdfPath: string,
    index: number,
    dpi: number,
    target?: PageTarget,
    signal?: AbortSignal,
  ): Promise<PageOutput> {
    return this.run({ op: 'page', pdfPath, index, dpi, target, slot: 0 }, signal);
  }

  image(imagePath: string, target?: PageTarget, signal?: AbortSignal): Promise<PageOutput> {
    return this.run({ op: 'image', imagePath, target, slot: 0 }, signal);
  }

  close(): Promise<void> {
    this.closing = true;
    return this.pool.destroy();
  }

  private async run<T>(task: PageTask, signal?: AbortSignal): Promise<T> {
    for (let attempt = 0; ; attempt++) {
      const slot = this.nextSlot;
      this.nextSlot = (this.nextSlot + 1) % SLOTS;
      Atomics.store(this.slots, slot, 0);
      try {
        return await this.watched<T>({ ...task, slot }, signal);
      } catch (err) {
        // Taken by an ended thread, or by none (it was on its way to the one that ended).
        const thread = Atomics.load(this.slots, slot);
        const collateral = thread === 0 || this.ended.has(thread);
        if (signal?.aborted || this.closing || !collateral || attempt >= RERUNS) throw err;
      }
    }
  }

  private watched<T>(task: PageTask, signal?: AbortSignal): Promise<T> {
    const running = this.pool.run(task) as Promise<T>;
    if (!signal) return running;
    return new Promise<T>((resolve, reject) => {
      const abort = () => {
        running.catch(() => {}); // settled by the thread's end, or ignored
        const thread = Atomics.compareExchange(this.slots, task.slot, 0, CANCELLED);
        if (thread > 0) this.end(thread);
        reject(signal.reason ?? new Error('aborted'));
      };
      if (signal.aborted) return abort();
      signal.addEventListener('abort', abort, { once: true });
      running.then(resolve, reject).finally(() => signal.removeEventListener('abort', abort));
    });
  }

  private end(threadId: number): void {
    this.ended.add(threadId);
    for (const worker of this.pool.threads) if (worker.threadId === threadId) void worker.terminate();
  }
}
