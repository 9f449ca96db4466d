import type { Queryable } from './database.ts';

/**
 * Every query the application issues carries a name (`<aggregate>.<operation>`), so a log
 * line, a trace or a benchmark can say which query was slow without quoting SQL. The
 * figures are per process and cheap: a count, a sum, a max and a small ring of recent
 * durations for the p95.
 */
export interface QueryFigures {
  name: string;
  calls: number;
  totalMs: number;
  meanMs: number;
  p95Ms: number;
  maxMs: number;
}

const RING = 512;

interface Tally {
  calls: number;
  totalMs: number;
  maxMs: number;
  recent: number[];
}

const tallies = new Map<string, Tally>();

/** Called once per query; a slow query is also reported to the listener, if any. */
let onSlow: ((name: string, ms: number) => void) | null = null;
let slowMs = Number.POSITIVE_INFINITY;

export function reportSlowQueries(thresholdMs: number, listener: (name: string, ms: number) => void): void {
  slowMs = thresholdMs;
  onSlow = listener;
}

function record(name: string, ms: number): void {
  let t = tallies.get(name);
  if (!t) {
    t = { calls: 0, totalMs: 0, maxMs: 0, recent: [] };
    tallies.set(name, t);
  }
  t.calls += 1;
  t.totalMs += ms;
  if (ms > t.maxMs) t.maxMs = ms;
  if (t.recent.length < RING) t.recent.push(ms);
  else t.recent[t.calls % RING] = ms;
  if (ms >= slowMs) onSlow?.(name, ms);
}

/** The one way a query runs: named, timed, and through the backend that maps its errors. */
export async function query<R = Record<string, unknown>>(
  q: Queryable,
  name: string,
  sql: string,
  params: readonly unknown[] = [],
): Promise<R[]> {
  const started = performance.now();
  try {
    return await q.query<R>(sql, params);
  } finally {
    record(name, performance.now() - started);
  }
}

const innerOf = new WeakMap<Queryable, Queryable>();

/**
 * A Queryable whose every query carries this name (a repository function's own). Naming a
 * named Queryable renames rather than nests, so a query is counted once, under the
 * innermost repository function that issued it.
 */
export function named(q: Queryable, name: string): Queryable {
  const inner = innerOf.get(q) ?? q;
  const wrapper: Queryable = { query: (sql, params) => query(inner, name, sql, params) };
  innerOf.set(wrapper, inner);
  return wrapper;
}

/** Slowest first by total time: where the database time of this process went. */
export function queryFigures(): QueryFigures[] {
  return [...tallies.entries()]
    .map(([name, t]) => {
      const sorted = [...t.recent].sort((a, b) => a - b);
      return {
        name,
        calls: t.calls,
        totalMs: t.totalMs,
        meanMs: t.totalMs / t.calls,
        p95Ms: sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * 0.95))] ?? 0,
        maxMs: t.maxMs,
      };
    })
    .sort((a, b) => b.totalMs - a.totalMs);
}

export function resetQueryFigures(): void {
  tallies.clear();
}
