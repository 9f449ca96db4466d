/**
 * Per-stage ingest timings for `npm run bench:ingest -- --profile`. Off unless the process
 * runs with FOLIO_INGEST_PROFILE=1 (read once); when off, every call here is a no-op and the
 * page worker sends no timings. Page-thread stages are summed over all threads, so on two
 * threads they can add up to twice the wall time.
 */
export const PROFILING = process.env.FOLIO_INGEST_PROFILE === '1';

export type Stage =
  | 'render'
  | 'jpeg'
  | 'retrieval'
  | 'hash'
  | 'text'
  | 'split'
  | 'ocrRender'
  | 'blob'
  | 'fsync'
  | 'db'
  | 'ocr'
  | 'finish'
  | 'cpu'
  | 'sys'
  | 'mainCpu'
  | 'transfer'
  | 'wait'
  | 'idle';

export type Stages = Partial<Record<Stage, number>>;

/** Accumulates stage times; one per job on the main thread, one per page in a worker. */
export class StageTimes {
  readonly ms: Stages = {};

  add(stage: Stage, ms: number): void {
    this.ms[stage] = (this.ms[stage] ?? 0) + ms;
  }

  merge(other: Stages | undefined): void {
    if (!other) return;
    for (const [k, v] of Object.entries(other)) this.add(k as Stage, v ?? 0);
  }

  /** Times `fn` into `stage` (only when profiling). */
  time<T>(stage: Stage, fn: () => T): T {
    if (!PROFILING) return fn();
    const t = performance.now();
    try {
      return fn();
    } finally {
      this.add(stage, performance.now() - t);
    }
  }

  async timeAsync<T>(stage: Stage, fn: () => Promise<T>): Promise<T> {
    if (!PROFILING) return fn();
    const t = performance.now();
    try {
      return await fn();
    } finally {
      this.add(stage, performance.now() - t);
    }
  }
}

/** Main-thread stages not tied to one job (the blob store's fsyncs), drained per job. */
export const processStages = new StageTimes();

/** Wall-clock ms comparable across threads (performance.now has a per-thread origin). */
export const epochMs = (): number => performance.timeOrigin + performance.now();

/** One line on stdout per finished job, which the bench parses. */
export function reportJob(jobId: string, pages: number, wallMs: number, stages: Stages): void {
  process.stdout.write(`FOLIO_INGEST_PROFILE ${JSON.stringify({ jobId, pages, wallMs, stages })}\n`);
}
