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
}

/** Call inside the transaction that creates the state the task works on; `now` is the clock's time. */
export async function enqueue(
  q: Queryable,
  kind: TaskKind,
  refId: string,
  now: number,
  runAfter = now,
): Promise<string> {
  const id = newId('task');
  await query(
    q,
    'queue.enqueue',
    'INSERT INTO tasks (id, kind, ref_id, run_after, attempts, created_at) VALUES ($1, $2, $3, $4, 0, $5)',
    [id, kind, refId, runAfter, now],
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

/** Takes the oldest ready task whose lease is free or has run out (a dead worker's task). */
export async function claimTask(
  q: Queryable,
  workerId: string,
  kinds: readonly TaskKind[],
  leaseMs: number,
  now: number,
): Promise<Task | null> {
  const rows = await query<Task>(
    q,
    'queue.claimTask',
    `UPDATE tasks SET locked_by = $1, lease_until = $2, attempts = attempts + 1
      WHERE id = (
        SELECT id FROM tasks
         WHERE kind = ANY($3::text[]) AND run_after <= $4 AND (lease_until IS NULL OR lease_until < $4)
         ORDER BY run_after, created_at
         FOR UPDATE SKIP LOCKED
         LIMIT 1)
      RETURNING *`,
    [workerId, now + leaseMs, kinds, now],
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
