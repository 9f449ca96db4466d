import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { Piscina } from 'piscina';
import type { InspectOutput, PageOutput, PageTask } from './page-worker.ts';

const WORKER = path.join(path.dirname(fileURLToPath(import.meta.url)), 'page-worker.ts');

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
      // Each thread holds its next task already, so it starts it the moment the last one ends
      // instead of waiting for the main thread (busy with the database and blobs) to hand
      // it over; the worker runs its tasks one at a time (see page-worker.ts).
      concurrentTasksPerWorker: 2,
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

  page(pdfPath: string, index: number, dpi: number, signal?: AbortSignal): Promise<PageOutput> {
    return this.pool.run({ op: 'page', pdfPath, index, dpi } satisfies PageTask, {
      signal,
    }) as Promise<PageOutput>;
  }

  image(imagePath: string, signal?: AbortSignal): Promise<PageOutput> {
    return this.pool.run({ op: 'image', imagePath } satisfies PageTask, { signal }) as Promise<PageOutput>;
  }

  close(): Promise<void> {
    return this.pool.destroy();
  }
}
