import { createHash, timingSafeEqual } from 'node:crypto';
import type { Queryable } from './db/database.ts';
import { renderMetrics, setWorkGauges } from './metrics.ts';
import { repos } from './repos/index.ts';
import { TASK_KINDS } from './task-kinds.ts';

const BEARER = /^Bearer\s+(\S+)\s*$/i;

/**
 * True when an `Authorization` header is `Bearer <token>` with the metrics token, compared in
 * constant time (as SHA-256 digests, so not even the length leaks).
 */
export function bearerMatches(header: string | undefined, token: string): boolean {
  const presented = BEARER.exec(header ?? '')?.[1];
  if (presented === undefined) return false;
  const a = createHash('sha256').update(presented).digest();
  const b = createHash('sha256').update(token).digest();
  return timingSafeEqual(a, b);
}

/**
 * One scrape: the queue and cell gauges of the whole deployment read from the database as of
 * `now`, then this process's series rendered as Prometheus text. Served by the API's
 * GET /metrics and by a worker process's own metrics listener (WORKER_METRICS_PORT).
 */
export async function scrapeMetrics(
  db: Queryable,
  now: number,
): Promise<{ contentType: string; body: string }> {
  const [queue, cells] = await Promise.all([
    repos(db).metrics.taskQueueFigures(now),
    repos(db).metrics.activeCellCounts(),
  ]);
  setWorkGauges(
    queue.map((q) => ({
      kind: q.kind,
      ready: q.ready,
      running: q.running,
      delayed: q.delayed,
      oldestReadyMs: q.oldest_ready_at === null ? 0 : Math.max(0, now - q.oldest_ready_at),
    })),
    TASK_KINDS,
    cells,
  );
  return renderMetrics();
}
