import type { Queryable } from '../db/database.ts';

/** The (row, column) pairs of a table whose cell carries a human override: runs skip them. */
export async function listOverriddenPairs(q: Queryable, tableId: string): Promise<Set<string>> {
  const rows = await q.query<{ k: string }>(
    `SELECT row_id || ' ' || column_id AS k FROM cells WHERE table_id = $1 AND human_override IS NOT NULL`,
    [tableId],
  );
  return new Set(rows.map((r) => r.k));
}

export interface LockedCell {
  id: string;
  status: string;
  hold_id: string | null;
  run_id: string | null;
  human_override: unknown;
}

/** Locks the existing cells of the given pairs, in id order (the one lock order for cells). */
export async function lockPairCells(
  q: Queryable,
  tableId: string,
  rowIds: readonly string[],
  columnIds: readonly string[],
): Promise<LockedCell[]> {
  return q.query<LockedCell>(
    `SELECT c.id, c.status, c.hold_id, c.run_id, c.human_override FROM cells c
       JOIN unnest($2::text[], $3::text[]) AS t(row_id, column_id) ON c.row_id = t.row_id AND c.column_id = t.column_id
      WHERE c.table_id = $1
      ORDER BY c.id
      FOR UPDATE OF c`,
    [tableId, rowIds, columnIds],
  );
}

export interface QueuedCell {
  id: string;
  rowId: string;
  columnId: string;
  columnVersion: number;
  bundleVersion: number;
  queuePos: number;
}

/**
 * Creates or resets each cell to IN_QUEUE for the run (D3: a run (re)creates the cell), unless
 * it carries a human override. A cell another run had queued or started now belongs to this
 * run. Returns the ids queued.
 */
export async function queueCells(
  q: Queryable,
  tableId: string,
  runId: string,
  cells: readonly QueuedCell[],
  now: number,
): Promise<string[]> {
  if (cells.length === 0) return [];
  const rows = await q.query<{ id: string }>(
    `INSERT INTO cells (id, table_id, row_id, column_id, status, value, citations, confidence, human_override,
                        column_version, bundle_version, run_id, queue_pos, attempts, created_at, updated_at)
     SELECT t.id, $1, t.row_id, t.column_id, 'IN_QUEUE', NULL, '[]', NULL, NULL, t.cv, t.bv, $2, t.pos, 0, $3, $3
       FROM unnest($4::text[], $5::text[], $6::text[], $7::int[], $8::int[], $9::bigint[]) AS t(id, row_id, column_id, cv, bv, pos)
     ON CONFLICT (row_id, column_id) DO UPDATE
        SET status = 'IN_QUEUE', status_text = NULL, block_reason = NULL, value = NULL, citations = '[]',
            confidence = NULL, run_id = EXCLUDED.run_id, queue_pos = EXCLUDED.queue_pos, claim_id = NULL,
            lease_until = NULL, attempts = 0, hold_id = NULL, updated_at = EXCLUDED.updated_at
      WHERE cells.human_override IS NULL
     RETURNING id`,
    [
      tableId,
      runId,
      now,
      cells.map((c) => c.id),
      cells.map((c) => c.rowId),
      cells.map((c) => c.columnId),
      cells.map((c) => c.columnVersion),
      cells.map((c) => c.bundleVersion),
      cells.map((c) => c.queuePos),
    ],
  );
  return rows.map((r) => r.id);
}

/** A claimed cell with everything a worker needs to price and answer it. */
export interface ClaimedCell {
  id: string;
  run_id: string;
  table_id: string;
  row_id: string;
  column_id: string;
  status: 'IN_QUEUE' | 'IN_PROGRESS';
  hold_id: string | null;
  attempts: number;
  workspace_id: string;
  locale: string | null;
  prompt: string;
  output_type: string;
  config: string | null;
  is_compositional: boolean;
  credit_rate: number;
  column_version: number;
  column_archived_at: number | null;
  row_archived_at: number | null;
  subject_type: 'file' | 'bundle';
  subject_id: string;
  /** The bundle's documentsVersion now (1 for a file row). */
  bundle_version: number;
}

/**
 * Takes up to `limit` cells that are queued, or that a dead worker left IN_PROGRESS past their
 * lease, skipping rows other workers hold locked. Must run in the transaction that starts them.
 */
export async function claimCells(q: Queryable, limit: number, now: number): Promise<ClaimedCell[]> {
  // The ids first, from the queue index alone, then the details of just those: without table
  // statistics the planner would otherwise join and sort every queued cell to keep a few.
  return q.query<ClaimedCell>(
    `WITH picked AS (
       SELECT id FROM cells
        WHERE status IN ('IN_QUEUE', 'IN_PROGRESS') AND (status = 'IN_QUEUE' OR lease_until < $2)
        ORDER BY queue_pos
        LIMIT $1
        FOR UPDATE SKIP LOCKED)
     SELECT c.id, c.run_id, c.table_id, c.row_id, c.column_id, c.status, c.hold_id, c.attempts,
            t.workspace_id, t.locale, col.prompt, col.output_type, col.config, col.is_compositional,
            col.credit_rate, col.version AS column_version, col.archived_at AS column_archived_at,
            r.archived_at AS row_archived_at, r.subject_type, r.subject_id,
            CASE WHEN r.subject_type = 'bundle'
                 THEN (SELECT b.documents_version FROM bundles b WHERE b.id = r.subject_id) ELSE 1 END AS bundle_version
       FROM picked p
       JOIN cells c ON c.id = p.id
       JOIN extraction_tables t ON t.id = c.table_id
       JOIN table_columns col ON col.id = c.column_id
       JOIN table_rows r ON r.id = c.row_id
      ORDER BY c.queue_pos`,
    [limit, now],
  );
}

export interface StartedCell {
  id: string;
  holdId: string;
  columnVersion: number;
  bundleVersion: number;
}

export async function markCellsStarted(
  q: Queryable,
  cells: readonly StartedCell[],
  claimId: string,
  leaseUntil: number,
  now: number,
): Promise<void> {
  if (cells.length === 0) return;
  await q.query(
    `UPDATE cells c SET status = 'IN_PROGRESS', claim_id = $1, lease_until = $2, attempts = c.attempts + 1,
                        hold_id = t.hold_id, column_version = t.cv, bundle_version = t.bv, updated_at = $3
       FROM unnest($4::text[], $5::text[], $6::int[], $7::int[]) AS t(id, hold_id, cv, bv)
      WHERE c.id = t.id`,
    [
      claimId,
      leaseUntil,
      now,
      cells.map((c) => c.id),
      cells.map((c) => c.holdId),
      cells.map((c) => c.columnVersion),
      cells.map((c) => c.bundleVersion),
    ],
  );
}

/** A cell's end state: SUCCESS or ERROR with its answer, or NOT_STARTED (blank) when it cannot run now. */
export interface EndedCell {
  id: string;
  status: 'SUCCESS' | 'ERROR' | 'NOT_STARTED';
  statusText: string | null;
  blockReason: string | null;
  /** JSON text or null. */
  value: string | null;
  citations: string;
  confidence: number | null;
}

export async function markCellsEnded(q: Queryable, cells: readonly EndedCell[], now: number): Promise<void> {
  if (cells.length === 0) return;
  await q.query(
    `UPDATE cells c SET status = t.status, status_text = t.status_text, block_reason = t.block_reason,
                        value = t.value::jsonb, citations = t.citations::jsonb, confidence = t.confidence,
                        claim_id = NULL, lease_until = NULL, hold_id = NULL, queue_pos = NULL, updated_at = $1
       FROM unnest($2::text[], $3::text[], $4::text[], $5::text[], $6::text[], $7::text[], $8::real[])
            AS t(id, status, status_text, block_reason, value, citations, confidence)
      WHERE c.id = t.id`,
    [
      now,
      cells.map((c) => c.id),
      cells.map((c) => c.status),
      cells.map((c) => c.statusText),
      cells.map((c) => c.blockReason),
      cells.map((c) => c.value),
      cells.map((c) => c.citations),
      cells.map((c) => c.confidence),
    ],
  );
}

/** The cells of `ids` still held by this claim, locked in id order; the rest were taken over. */
export async function lockClaimedCells(
  q: Queryable,
  claimId: string,
  ids: readonly string[],
): Promise<{ id: string; hold_id: string | null; run_id: string }[]> {
  return q.query(
    `SELECT id, hold_id, run_id FROM cells
      WHERE id = ANY($1::text[]) AND claim_id = $2 AND status = 'IN_PROGRESS'
      ORDER BY id FOR UPDATE`,
    [ids, claimId],
  );
}

/** Renews the lease of every cell this claim still holds; returns how many it holds. */
export async function extendCellLeases(q: Queryable, claimId: string, leaseUntil: number): Promise<number> {
  const rows = await q.query(
    `UPDATE cells SET lease_until = $2 WHERE claim_id = $1 AND status = 'IN_PROGRESS' RETURNING id`,
    [claimId, leaseUntil],
  );
  return rows.length;
}

/** A worker stopping politely hands its unfinished cells back to the queue. */
export async function requeueCells(q: Queryable, ids: readonly string[], now: number): Promise<void> {
  if (ids.length === 0) return;
  await q.query(
    `UPDATE cells SET status = 'IN_QUEUE', claim_id = NULL, lease_until = NULL, hold_id = NULL,
                      attempts = GREATEST(attempts - 1, 0), updated_at = $2
      WHERE id = ANY($1::text[])`,
    [ids, now],
  );
}

/**
 * The head of the cell queue: the lowest position still queued or running; when nothing is,
 * just past the last position any workspace was given (so positions only grow).
 */
export async function queueHead(q: Queryable): Promise<number> {
  const rows = await q.query<{ head: number }>(
    `SELECT COALESCE(
       (SELECT queue_pos FROM cells WHERE status IN ('IN_QUEUE', 'IN_PROGRESS') AND queue_pos IS NOT NULL
         ORDER BY queue_pos LIMIT 1),
       (SELECT COALESCE(max(cell_tail), 0) + 1 FROM workspace_queue_tails)) AS head`,
  );
  return Number(rows[0].head);
}

/**
 * Gives a workspace `count` consecutive queue positions starting after both its own last
 * position and `head`; returns the first. Start-time fair queuing: workspaces queuing at the
 * same time interleave, and a workspace's second run queues behind its first.
 */
export async function allocateQueuePositions(
  q: Queryable,
  workspaceId: string,
  head: number,
  count: number,
): Promise<number> {
  const rows = await q.query<{ first: number }>(
    `INSERT INTO workspace_queue_tails AS w (workspace_id, cell_tail) VALUES ($1, $2::bigint + $3::bigint - 1)
     ON CONFLICT (workspace_id) DO UPDATE SET cell_tail = GREATEST(w.cell_tail + 1, $2::bigint) + $3::bigint - 1
     RETURNING w.cell_tail - $3::bigint + 1 AS first`,
    [workspaceId, head, count],
  );
  return Number(rows[0].first);
}
