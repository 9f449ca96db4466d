import type { Queryable } from '../db/database.ts';

/** One entry of a cell's append-only log (interface.md 2.5); `data` is JSON text. */
export interface CellEventRow {
  id: string;
  cell_id: string;
  type: string;
  data: string;
  actor_id: string | null;
  created_at: number;
}

/**
 * Appends an event and returns the stored `created_at`. The log is read in `created_at`
 * order, so an event never gets a time earlier than one past the cell's latest event: two
 * writes within the same millisecond keep the order they were made in. Callers hold the
 * cell's row lock, so the latest event cannot change underneath.
 */
export async function appendCellEvent(q: Queryable, e: CellEventRow): Promise<number> {
  const rows = await q.query<{ created_at: number }>(
    `INSERT INTO cell_events (id, cell_id, type, data, actor_id, created_at)
     SELECT $1, $2, $3, $4, $5, GREATEST($6::bigint, COALESCE(MAX(created_at) + 1, $6::bigint))
       FROM cell_events WHERE cell_id = $2
     RETURNING created_at`,
    [e.id, e.cell_id, e.type, e.data, e.actor_id, e.created_at],
  );
  return rows[0].created_at;
}

/** Oldest first. */
export async function listCellEvents(q: Queryable, cellId: string): Promise<CellEventRow[]> {
  return q.query<CellEventRow>('SELECT * FROM cell_events WHERE cell_id = $1 ORDER BY created_at, id', [
    cellId,
  ]);
}
