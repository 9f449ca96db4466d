import type { Queryable } from '../db/database.ts';

export interface TaskQueueFigures {
  kind: string;
  /** Due and not leased (new, retried, or left by a dead worker): waiting for a worker. */
  ready: number;
  /** Leased by a live worker. */
  running: number;
  /** Not due yet: a retry backing off, or a recurring task between beats. */
  delayed: number;
  /** The earliest time a ready task became due (epoch ms), or null when none is ready. */
  oldest_ready_at: number | null;
}

/**
 * The work queue by kind, as of `now`, for the metrics scrape. Finished tasks are deleted and
 * failed ones left out, so this reads only the live queue, however long the service has run.
 */
export async function taskQueueFigures(q: Queryable, now: number): Promise<TaskQueueFigures[]> {
  const rows = await q.query<TaskQueueFigures>(
    `SELECT kind,
            count(*) FILTER (WHERE lease_until >= $1)::int AS running,
            count(*) FILTER (WHERE (lease_until IS NULL OR lease_until < $1) AND run_after <= $1)::int AS ready,
            count(*) FILTER (WHERE (lease_until IS NULL OR lease_until < $1) AND run_after > $1)::int AS delayed,
            min(run_after) FILTER (WHERE (lease_until IS NULL OR lease_until < $1) AND run_after <= $1) AS oldest_ready_at
       FROM tasks
      WHERE failed_at IS NULL
      GROUP BY kind
      ORDER BY kind`,
    [now],
  );
  return rows.map((r) => ({
    ...r,
    oldest_ready_at: r.oldest_ready_at === null ? null : Number(r.oldest_ready_at),
  }));
}

/**
 * Cells queued or being answered, by status. The filter is the predicate of the partial queue
 * index (cells_queue_idx), so the count reads the live queue only, never every answered cell.
 */
export async function activeCellCounts(q: Queryable): Promise<{ status: string; count: number }[]> {
  return q.query<{ status: string; count: number }>(
    `SELECT status, count(*)::int AS count FROM cells
      WHERE status IN ('IN_QUEUE', 'IN_PROGRESS')
      GROUP BY status`,
  );
}
