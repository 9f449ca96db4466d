import type { Queryable } from './db/database.ts';
import { query } from './db/named-query.ts';
import { newId } from './ids.ts';
import type { TaskKind } from './task-kinds.ts';

/**
 * The work queue lives in Postgres so that any number of worker processes share it. A task
 * carries only a kind and an id; the row it points at is the state machine.
 */
export interface Task {
  id: string;
  /** A `TaskKind` when written by this code; a string, as read back, since rows may outlive a kind. */
  kind: string;
  ref_id: string;
  run_after: number;
  attempts: number;
  locked_by: string | null;
  lease_until: number | null;
  last_error: string | null;
  /** Set when the task was failed for good without running (a kind with no handler). */
  failed_at: number | null;
  created_at: number;
  /** The workspace the task works for; null for housekeeping (sweeps). */
  workspace_id: string | null;
  /** Its place in the fair order (see claimTask); null for housekeeping, which goes first. */
  queue_pos: number | null;
}

/** Call inside the transaction that creates the state the task works on; `now` is the clock's time. */
export async function enqueue(
  q: Queryable,
  kind: TaskKind,
  refId: string,
  now: number,
  opts: { runAfter?: number; workspaceId?: string | null } = {},
): Promise<string> {
  const id = newId('task');
  const workspaceId = opts.workspaceId ?? null;
  await query(
    q,
    'queue.enqueue',
    workspaceId === null
      ? `INSERT INTO tasks (id, kind, ref_id, run_after, attempts, created_at) VALUES ($1, $2, $3, $4, 0, $5)`
      : // The position: after the workspace's last and after the head of the queue.
        `WITH head AS (
           SELECT COALESCE(
             (SELECT min(queue_pos) FROM tasks WHERE queue_pos IS NOT NULL AND failed_at IS NULL),
             (SELECT COALESCE(max(task_tail), 0) + 1 FROM workspace_queue_tails)) AS h
         ), pos AS (
           INSERT INTO workspace_queue_tails AS w (workspace_id, task_tail) SELECT $6, h FROM head
           ON CONFLICT (workspace_id) DO UPDATE SET task_tail = GREATEST(w.task_tail + 1, (SELECT h FROM head))
           RETURNING task_tail
         )
         INSERT INTO tasks (id, kind, ref_id, run_after, attempts, created_at, workspace_id, queue_pos)
         SELECT $1, $2, $3, $4, 0, $5, $6, task_tail FROM pos`,
    workspaceId === null
      ? [id, kind, refId, opts.runAfter ?? now, now]
      : [id, kind, refId, opts.runAfter ?? now, now, workspaceId],
  );
  return id;
}

/**
 * A recurring task is one row under a fixed id: however many workers start, there is one,
 * and a dead worker's lease on it runs out like any other. Inserting it again is a no-op.
 */
export async function ensureRecurringTask(
  q: Queryable,
  kind: TaskKind,
  now: number,
  runAfter: number,
): Promise<void> {
  await query(
    q,
    'queue.ensureRecurringTask',
    `INSERT INTO tasks (id, kind, ref_id, run_after, attempts, created_at) VALUES ($1, $2, $2, $3, 0, $4)
     ON CONFLICT (id) DO NOTHING`,
    [recurringTaskId(kind), kind, runAfter, now],
  );
}

export function recurringTaskId(kind: TaskKind): string {
  return `task_every_${kind}`;
}

/** Hands a recurring task back for its next beat, with a fresh count of attempts. */
export async function rescheduleTask(
  q: Queryable,
  id: string,
  workerId: string,
  runAfter: number,
): Promise<void> {
  await query(
    q,
    'queue.rescheduleTask',
    `UPDATE tasks SET locked_by = NULL, lease_until = NULL, run_after = $3, attempts = 0, last_error = NULL
      WHERE id = $1 AND locked_by = $2`,
    [id, workerId, runAfter],
  );
}

/** The advisory lock under which capped claims take turns ("folio" in ASCII, a constant). */
const CLAIM_LOCK = 0x666f6c696f;

/**
 * Takes a ready task whose lease is free or has run out (a dead worker's task), fairly: the
 * workspace with the fewest tasks running goes first, then the lowest queue position (see
 * enqueue: start-time fair queuing), so one workspace's bulk (or hostile) uploads delay
 * another's job by about the tasks running when it arrived. A workspace already running
 * `perWorkspace` tasks (0: no cap) waits, even when a worker is idle. Housekeeping tasks (no
 * workspace) are never capped and go first.
 */
export async function claimTask(
  q: Queryable,
  workerId: string,
  kinds: readonly TaskKind[],
  leaseMs: number,
  now: number,
  perWorkspace = 0,
): Promise<Task | null> {
  // With a cap, claims take turns (call this inside a transaction): two claims at once would
  // each count the other's task as not yet running and both take one.
  if (perWorkspace > 0) await query(q, 'queue.claimTurn', 'SELECT pg_advisory_xact_lock($1)', [CLAIM_LOCK]);
  const rows = await query<Task>(
    q,
    'queue.claimTask',
    `UPDATE tasks SET locked_by = $1, lease_until = $2, attempts = attempts + 1
      WHERE id = (
        SELECT t.id FROM tasks t
          LEFT JOIN LATERAL (
            SELECT count(*)::int AS n FROM tasks r
             WHERE r.workspace_id IS NOT DISTINCT FROM t.workspace_id AND r.locked_by IS NOT NULL
               AND r.lease_until >= $4) running ON true
         WHERE t.kind = ANY($3::text[]) AND t.run_after <= $4 AND (t.lease_until IS NULL OR t.lease_until < $4)
           AND t.failed_at IS NULL AND ($5::int = 0 OR t.workspace_id IS NULL OR running.n < $5::int)
         ORDER BY running.n, t.queue_pos NULLS FIRST, t.run_after, t.created_at
         FOR UPDATE OF t SKIP LOCKED
         LIMIT 1)
      RETURNING *`,
    [workerId, now + leaseMs, kinds, now, perWorkspace],
  );
  return rows[0] ?? null;
}

/** False when the lease was lost (another worker took the task over). */
export async function extendLease(
  q: Queryable,
  id: string,
  workerId: string,
  leaseMs: number,
  now: number,
): Promise<boolean> {
  const rows = await query(
    q,
    'queue.extendLease',
    'UPDATE tasks SET lease_until = $3 WHERE id = $1 AND locked_by = $2 RETURNING id',
    [id, workerId, now + leaseMs],
  );
  return rows.length === 1;
}

export async function completeTask(q: Queryable, id: string, workerId: string): Promise<void> {
  await query(q, 'queue.completeTask', 'DELETE FROM tasks WHERE id = $1 AND locked_by = $2', [id, workerId]);
}

/**
 * A worker stopping politely hands a task it was interrupted on back at once: the lease is
 * freed (another worker may claim it now, not when the lease would have run out) and the
 * interrupted attempt is not counted. A no-op when the lease was lost to another worker.
 */
export async function releaseTask(q: Queryable, id: string, workerId: string): Promise<void> {
  await query(
    q,
    'queue.releaseTask',
    `UPDATE tasks SET locked_by = NULL, lease_until = NULL, attempts = GREATEST(attempts - 1, 0)
      WHERE id = $1 AND locked_by = $2`,
    [id, workerId],
  );
}

export async function retryTask(
  q: Queryable,
  id: string,
  workerId: string,
  delayMs: number,
  error: string,
  now: number,
): Promise<void> {
  await query(
    q,
    'queue.retryTask',
    `UPDATE tasks SET locked_by = NULL, lease_until = NULL, run_after = $3, last_error = $4
      WHERE id = $1 AND locked_by = $2`,
    [id, workerId, now + delayMs, error.slice(0, 2000)],
  );
}

/**
 * Fails, for good, every task whose kind is not one of `kinds` (a row no handler here can
 * run: a typo written by hand, or a kind since removed). Such a task was never claimed
 * (claimTask asks only for known kinds); it keeps its row with `failed_at` set and
 * `last_error` saying why, and is not looked at again. Returns the tasks it failed.
 */
/**
 * How long a task of a kind this code does not know waits before it is failed: during a
 * rolling deploy an older worker sees the kinds a newer one enqueues, and must leave them to it.
 */
export const UNKNOWN_KIND_GRACE_MS = 60 * 60 * 1000;

export async function failUnknownTasks(
  q: Queryable,
  kinds: readonly TaskKind[],
  now: number,
): Promise<Array<{ id: string; kind: string; ref_id: string }>> {
  return query<{ id: string; kind: string; ref_id: string }>(
    q,
    'queue.failUnknownTasks',
    `UPDATE tasks SET failed_at = $2, locked_by = NULL, lease_until = NULL,
            last_error = 'Unknown task kind "' || kind || '": no handler is registered for it, so the task was not run'
      WHERE failed_at IS NULL AND NOT (kind = ANY($1::text[])) AND created_at < $3
      RETURNING id, kind, ref_id`,
    [kinds, now, now - UNKNOWN_KIND_GRACE_MS],
  );
}
