import { Counter, collectDefaultMetrics, Gauge, Histogram, Registry } from 'prom-client';

/**
 * The process's Prometheus series (GET /metrics, issue 17). One registry of our own, never
 * prom-client's global one, so nothing a library registers leaks in. Counters and
 * histograms are recorded where the work happens (any layer may call these functions: they
 * touch no database and no framework); the queue and cell gauges are read from the database
 * at scrape time by the route and set here just before the text is rendered.
 *
 * Counters are per process: a deployment sums them over every process Prometheus scrapes.
 */
const registry = new Registry();

export type Outcome = 'success' | 'error';

const httpDuration = new Histogram({
  name: 'folio_http_request_duration_seconds',
  help: 'HTTP requests answered, by method, route pattern and status code, with their duration in seconds.',
  labelNames: ['method', 'route', 'status_code'] as const,
  buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60],
  registers: [registry],
});

const ingestJobs = new Counter({
  name: 'folio_ingest_jobs_total',
  help: 'Ingest jobs this process ended, by outcome (success or error).',
  labelNames: ['outcome'] as const,
  registers: [registry],
});

const ingestPages = new Counter({
  name: 'folio_ingest_pages_total',
  help: 'Pages this process read: success when stored and charged, error when a page could not be read.',
  labelNames: ['outcome'] as const,
  registers: [registry],
});

const creditsCharged = new Counter({
  name: 'folio_credits_charged_total',
  help: 'Credits charged by this process, by reason: ingest_page, cell (a hold captured) or search.',
  labelNames: ['reason'] as const,
  registers: [registry],
});

const cellsFinished = new Counter({
  name: 'folio_cells_finished_total',
  help: 'Table cells this process answered and ended, by outcome (success or error).',
  labelNames: ['outcome'] as const,
  registers: [registry],
});

const engineDuration = new Histogram({
  name: 'folio_engine_cell_duration_seconds',
  help: 'Time the answer engine took on one table cell, in seconds, by outcome.',
  labelNames: ['outcome'] as const,
  buckets: [0.001, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 120],
  registers: [registry],
});

const searchDuration = new Histogram({
  name: 'folio_search_duration_seconds',
  help: 'Time a page search (POST /v1/search) took, in seconds, by outcome.',
  labelNames: ['outcome'] as const,
  buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30],
  registers: [registry],
});

const queueDepth = new Gauge({
  name: 'folio_queue_depth',
  help: 'Tasks in the work queue (whole deployment, read at scrape), by kind and state: ready (due, waiting for a worker), running (leased by a worker), delayed (a retry or recurring task not yet due).',
  labelNames: ['kind', 'state'] as const,
  registers: [registry],
});

const queueOldest = new Gauge({
  name: 'folio_queue_oldest_task_age_seconds',
  help: 'Seconds the oldest ready task of each kind has waited for a worker since it became due; 0 when none waits.',
  labelNames: ['kind'] as const,
  registers: [registry],
});

const cellsByStatus = new Gauge({
  name: 'folio_cells',
  help: 'Table cells waiting for or being answered (whole deployment, read at scrape), by status: IN_QUEUE or IN_PROGRESS.',
  labelNames: ['status'] as const,
  registers: [registry],
});

export const QUEUE_STATES = ['ready', 'running', 'delayed'] as const;
export const ACTIVE_CELL_STATUSES = ['IN_QUEUE', 'IN_PROGRESS'] as const;

let processMetrics = false;

/** Node's and the process's own series (CPU, memory, event loop lag, GC, handles), once per process. */
export function enableProcessMetrics(): void {
  if (processMetrics) return;
  processMetrics = true;
  collectDefaultMetrics({ register: registry });
}

/** One HTTP request; `route` is the route pattern (never the raw URL, whose ids would explode the series). */
export function observeHttpRequest(method: string, route: string, statusCode: number, seconds: number): void {
  httpDuration.observe({ method, route, status_code: String(statusCode) }, seconds);
}

export function countIngestJob(outcome: Outcome): void {
  ingestJobs.inc({ outcome });
}

export function countIngestPages(outcome: Outcome, pages = 1): void {
  if (pages > 0) ingestPages.inc({ outcome }, pages);
}

export function countCreditsCharged(reason: 'ingest_page' | 'cell' | 'search', credits: number): void {
  if (credits > 0) creditsCharged.inc({ reason }, credits);
}

export function countCellsFinished(outcome: Outcome, cells = 1): void {
  if (cells > 0) cellsFinished.inc({ outcome }, cells);
}

export function observeEngineCell(outcome: Outcome, seconds: number): void {
  engineDuration.observe({ outcome }, seconds);
}

export function observeSearch(outcome: Outcome, seconds: number): void {
  searchDuration.observe({ outcome }, seconds);
}

export interface QueueFigures {
  kind: string;
  ready: number;
  running: number;
  delayed: number;
  /** Age of the oldest ready task in ms; 0 when none. */
  oldestReadyMs: number;
}

/**
 * The database-derived gauges, set just before a scrape renders: every kind in `kinds` shows
 * (0 when it has no task), and so does any other kind the table holds.
 */
export function setWorkGauges(
  queue: readonly QueueFigures[],
  kinds: readonly string[],
  cells: readonly { status: string; count: number }[],
): void {
  queueDepth.reset();
  queueOldest.reset();
  cellsByStatus.reset();
  const byKind = new Map(queue.map((q) => [q.kind, q]));
  for (const kind of new Set([...kinds, ...byKind.keys()])) {
    const q = byKind.get(kind);
    for (const state of QUEUE_STATES) queueDepth.set({ kind, state }, q?.[state] ?? 0);
    queueOldest.set({ kind }, (q?.oldestReadyMs ?? 0) / 1000);
  }
  const byStatus = new Map(cells.map((c) => [c.status, c.count]));
  for (const status of ACTIVE_CELL_STATUSES) cellsByStatus.set({ status }, byStatus.get(status) ?? 0);
}

/** The exposition text and its content type. */
export async function renderMetrics(): Promise<{ contentType: string; body: string }> {
  return { contentType: registry.contentType, body: await registry.metrics() };
}
