import type { Queryable } from '../db/database.ts';

export type RunStatus = 'NOT_STARTED' | 'IN_QUEUE' | 'IN_PROGRESS' | 'SUCCESS' | 'ERROR' | 'CANCELED';

export interface RunRow {
  id: string;
  table_id: string;
  workspace_id: string;
  status: RunStatus;
  triggered_by: string;
  total_cells: number;
  started_at: number | null;
  finished_at: number | null;
  created_at: number;
  updated_at: number;
}

export type RunWithPending = RunRow & { pending_cells: number };

const ACTIVE = `('NOT_STARTED', 'IN_QUEUE', 'IN_PROGRESS')`;

/** A finished run has nothing pending, whatever its last cells still do (3.1). */
const WITH_PENDING = `SELECT r.*,
  CASE WHEN r.status IN ${ACTIVE}
       THEN (SELECT count(*) FROM cells c WHERE c.run_id = r.id AND c.status IN ('IN_QUEUE', 'IN_PROGRESS'))
       ELSE 0 END::int AS pending_cells
  FROM runs r`;

export async function insertRun(q: Queryable, r: RunRow): Promise<void> {
  await q.query(
    `INSERT INTO runs (id, table_id, workspace_id, status, triggered_by, total_cells, started_at, finished_at,
                       created_at, updated_at)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10)`,
    [
      r.id,
      r.table_id,
      r.workspace_id,
      r.status,
      r.triggered_by,
      r.total_cells,
      r.started_at,
      r.finished_at,
      r.created_at,
      r.updated_at,
    ],
  );
}

export async function findRun(q: Queryable, tableId: string, runId: string): Promise<RunWithPending | null> {
  const rows = await q.query<RunWithPending>(`${WITH_PENDING} WHERE r.table_id = $1 AND r.id = $2`, [
    tableId,
    runId,
  ]);
  return rows[0] ?? null;
}

/** Newest first. */
export async function listRuns(q: Queryable, tableId: string): Promise<RunWithPending[]> {
  return q.query<RunWithPending>(
    `${WITH_PENDING} WHERE r.table_id = $1 ORDER BY r.created_at DESC, r.id DESC`,
    [tableId],
  );
}

/**
 * Marks runs CANCELED (3.1) and puts their unstarted cells back to blank (D3: NOT_STARTED,
 * value null). Cells already IN_PROGRESS are left to finish and be charged. Returns the
 * runs that were canceled, newest first.
 */
export async function cancelRuns(
  q: Queryable,
  tableId: string,
  runIds: readonly string[] | null,
  now: number,
): Promise<string[]> {
  const canceled = await q.query<{ id: string }>(
    `UPDATE runs SET status = 'CANCELED', finished_at = $3, updated_at = $3
      WHERE table_id = $1 AND status IN ${ACTIVE} AND ($2::text[] IS NULL OR id = ANY($2::text[]))
      RETURNING id, created_at`,
    [tableId, runIds, now],
  );
  const ids = canceled.map((r) => r.id);
  if (ids.length > 0) {
    // Cells are locked in id order, the one lock order for cells (a run start locks them so
    // too): an UPDATE alone locks in scan order and deadlocks with a concurrent start.
    const queued = await q.query<{ id: string }>(
      `SELECT id FROM cells WHERE run_id = ANY($1::text[]) AND status = 'IN_QUEUE' ORDER BY id FOR UPDATE`,
      [ids],
    );
    if (queued.length > 0) {
      await q.query(
        `UPDATE cells SET status = 'NOT_STARTED', status_text = NULL, block_reason = NULL, value = NULL,
                          citations = '[]', confidence = NULL, queue_pos = NULL, updated_at = $2
          WHERE id = ANY($1::text[]) AND status = 'IN_QUEUE'`,
        [queued.map((c) => c.id), now],
      );
    }
  }
  return ids;
}

/**
 * Ends a run once none of its cells is pending: ERROR when cells ran and none succeeded,
 * else SUCCESS (D3). Idempotent, and safe without locks: whichever call comes after the last
 * cell's commit sees it.
 */
/** Finishes the runs of `runIds` with nothing left pending; returns those it finished. */
export async function settleRuns(q: Queryable, runIds: readonly string[], now: number): Promise<RunRow[]> {
  if (runIds.length === 0) return [];
  return q.query<RunRow>(
    `UPDATE runs r
        SET status = CASE WHEN s.ran > 0 AND s.ok = 0 THEN 'ERROR' ELSE 'SUCCESS' END,
            finished_at = $2, updated_at = $2
       FROM (SELECT r2.id,
                    (SELECT count(*) FROM cells c WHERE c.run_id = r2.id AND c.status IN ('SUCCESS', 'ERROR')) AS ran,
                    (SELECT count(*) FROM cells c WHERE c.run_id = r2.id AND c.status = 'SUCCESS') AS ok
               FROM runs r2
              WHERE r2.id = ANY($1::text[]) AND r2.status IN ${ACTIVE}
                AND NOT EXISTS (SELECT 1 FROM cells c WHERE c.run_id = r2.id AND c.status IN ('IN_QUEUE', 'IN_PROGRESS'))) s
      WHERE r.id = s.id AND r.status IN ${ACTIVE}
      RETURNING r.*`,
    [runIds, now],
  );
}

export async function findRunsByIds(q: Queryable, ids: readonly string[]): Promise<RunRow[]> {
  if (ids.length === 0) return [];
  return q.query<RunRow>('SELECT * FROM runs WHERE id = ANY($1::text[]) ORDER BY id', [ids]);
}

/** Runs left active with nothing pending (a settle lost to a crash); the worker sweeps them. */
export async function listUnsettledRuns(q: Queryable, limit: number): Promise<string[]> {
  const rows = await q.query<{ id: string }>(
    `SELECT r.id FROM runs r
      WHERE r.status IN ${ACTIVE}
        AND NOT EXISTS (SELECT 1 FROM cells c WHERE c.run_id = r.id AND c.status IN ('IN_QUEUE', 'IN_PROGRESS'))
      LIMIT $1`,
    [limit],
  );
  return rows.map((r) => r.id);
}
