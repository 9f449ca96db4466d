import type { Queryable } from '../db/database.ts';
import type { CellRow } from './cells.ts';

/** A cell with what an override needs to know about its column and row. */
export type CellForOverride = CellRow & {
  output_type: string;
  column_config: string | null;
  column_archived_at: number | null;
  row_archived_at: number | null;
};

/** The cell of this table, locked for a change, with its column's type and config; null when absent. */
export async function lockCellForOverride(
  q: Queryable,
  tableId: string,
  cellId: string,
): Promise<CellForOverride | null> {
  const rows = await q.query<CellForOverride>(
    `SELECT c.*, col.output_type, col.config AS column_config, col.archived_at AS column_archived_at,
            r.archived_at AS row_archived_at
       FROM cells c
       JOIN table_columns col ON col.id = c.column_id
       JOIN table_rows r ON r.id = c.row_id
      WHERE c.table_id = $1 AND c.id = $2
        FOR UPDATE OF c`,
    [tableId, cellId],
  );
  return rows[0] ?? null;
}

/** Sets (or with null clears) `human_override`; `value` is never touched. */
export async function updateCellOverride(
  q: Queryable,
  cellId: string,
  override: unknown,
  now: number,
): Promise<void> {
  await q.query('UPDATE cells SET human_override = $2::jsonb, updated_at = $3 WHERE id = $1', [
    cellId,
    override === null ? null : JSON.stringify(override),
    now,
  ]);
}

export async function cellInTable(q: Queryable, tableId: string, cellId: string): Promise<boolean> {
  const rows = await q.query('SELECT 1 FROM cells WHERE table_id = $1 AND id = $2', [tableId, cellId]);
  return rows.length > 0;
}
