import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { Piscina } from 'piscina';
import type { InspectOutput, PageOutput, PageTarget, PageTask } from './page-worker.ts';

const WORKER = path.join(path.dirname(fileURLToPath(import.meta.url)), 'page-worker.ts');

const PER_THREAD = 2;

type Balancer = NonNullable<NonNullable<ConstructorParameters<typeof Piscina>[0]>['loadBalancer']>;

/**
 * The thread with the fewest tasks, up to PER_THREAD each. Piscina's own balancer never
 * gives a second task to a thread running an abortable one, and every page task is
 * abortable (its timeout), so each thread had one task at a time and sat idle between
 * them (bench:ingest: page threads busy 28% of the time each). A page that hangs still
 * ends its thread; the task queued behind it fails with it, in a job that fails anyway.
 */
const leastBusy: Balancer = (_task, workers) => {
  let best: (typeof workers)[number] | null = null;
  for (const w of workers) {
    if (w.currentUsage < PER_THREAD && (best === null || w.currentUsage < best.currentUsage)) best = w;
  }
  return best;
};

/** A bounded pool of worker threads for rendering and text extraction. */
export class PagePool {
  private readonly pool: Piscina;

  constructor(threads: number) {
    this.pool = new Piscina({
      filename: WORKER,
      minThreads: 0,
      maxThreads: threads,
      idleTimeout: 30_000,
      // Each thread holds one open document and its WASM heap; keep the queue, not the threads,
      // long. Every job bounds the pages it has in flight, so the queue needs no cap of its own.
      maxQueue: Number.POSITIVE_INFINITY,
      // Each thread holds its next task already, so it starts it the moment the last one
      // lets go of the document instead of waiting for the main thread to hand it over;
      // the worker takes its tasks in turn (see page-worker.ts).
      concurrentTasksPerWorker: PER_THREAD,
      loadBalancer: leastBusy,
      // Page bytes live outside the JS heap; a small young generation keeps each thread lean.
      resourceLimits: { maxYoungGenerationSizeMb: 8, maxOldGenerationSizeMb: 256 },
    });
  }

  get threads(): number {
    return this.pool.options.maxThreads;
  }

  inspect(pdfPath: string, signal?: AbortSignal): Promise<InspectOutput> {
    return this.pool.run({ op: 'inspect', pdfPath } satisfies PageTask, { signal }) as Promise<InspectOutput>;
  }

  page(
    pdfPath: string,
    index: number,
    dpi: number,
    target?: PageTarget,
    signal?: AbortSignal,
  ): Promise<PageOutput> {
    return this.pool.run({ op: 'page', pdfPath, index, dpi, target } satisfies PageTask, {
      signal,
    }) as Promise<PageOutput>;
  }

  image(imagePath: string, target?: PageTarget, signal?: AbortSignal): Promise<PageOutput> {
    return this.pool.run({ op: 'image', imagePath, target } satisfies PageTask, {
      signal,
    }) as Promise<PageOutput>;
  }

  close(): Promise<void> {
    return this.pool.destroy();
  }
}
