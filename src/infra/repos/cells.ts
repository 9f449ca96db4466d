import type { Queryable } from '../db/database.ts';

export type CellStatus = 'NOT_STARTED' | 'IN_QUEUE' | 'IN_PROGRESS' | 'SUCCESS' | 'ERROR';

export interface CellRow {
  id: string;
  table_id: string;
  row_id: string;
  column_id: string;
  status: CellStatus;
  status_text: string | null;
  block_reason: string | null;
  value: unknown;
  citations: unknown[];
  confidence: number | null;
  human_override: unknown;
  column_version: number;
  bundle_version: number;
  run_id: string | null;
  created_at: number;
  updated_at: number;
}

export type CellWithStale = CellRow & { stale: boolean };

export async function insertCell(q: Queryable, c: CellRow): Promise<void> {
  await q.query(
    `INSERT INTO cells (id, table_id, row_id, column_id, status, status_text, block_reason, value, citations, confidence,
                        human_override, column_version, bundle_version, run_id, created_at, updated_at)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16)`,
    [
      c.id,
      c.table_id,
      c.row_id,
      c.column_id,
      c.status,
      c.status_text,
      c.block_reason,
      c.value === null || c.value === undefined ? null : JSON.stringify(c.value),
      JSON.stringify(c.citations ?? []),
      c.confidence,
      c.human_override === null || c.human_override === undefined ? null : JSON.stringify(c.human_override),
      c.column_version,
      c.bundle_version,
      c.run_id,
      c.created_at,
      c.updated_at,
    ],
  );
}

/**
 * Every cell of a table with `stale` worked out here, from both axes (3.2): behind its
 * column's version, or behind its bundle's documentsVersion.
 */
export async function listCellsWithStale(q: Queryable, tableId: string): Promise<CellWithStale[]> {
  return q.query<CellWithStale>(
    `SELECT c.*,
            (c.column_version < col.version
              OR (r.subject_type = 'bundle' AND c.bundle_version < COALESCE(b.documents_version, c.bundle_version))) AS stale
       FROM cells c
       JOIN table_columns col ON col.id = c.column_id
       JOIN table_rows r ON r.id = c.row_id
       LEFT JOIN bundles b ON r.subject_type = 'bundle' AND b.id = r.subject_id
      WHERE c.table_id = $1
      ORDER BY r.sort_order, r.id, col.sort_order, col.id`,
    [tableId],
  );
}
