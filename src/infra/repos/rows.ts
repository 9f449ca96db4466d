import type { Queryable } from '../db/database.ts';

export interface RowRow {
  id: string;
  table_id: string;
  subject_type: 'file' | 'bundle';
  subject_id: string;
  sort_order: number;
  archived_at: number | null;
  created_at: number;
  updated_at: number;
}

export async function insertRow(q: Queryable, r: RowRow): Promise<void> {
  await q.query(
    `INSERT INTO table_rows (id, table_id, subject_type, subject_id, sort_order, archived_at, created_at, updated_at)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8)`,
    [r.id, r.table_id, r.subject_type, r.subject_id, r.sort_order, r.archived_at, r.created_at, r.updated_at],
  );
}

export async function listRows(q: Queryable, tableId: string): Promise<RowRow[]> {
  return q.query<RowRow>('SELECT * FROM table_rows WHERE table_id = $1 ORDER BY sort_order, created_at, id', [
    tableId,
  ]);
}

export async function findRow(q: Queryable, tableId: string, id: string): Promise<RowRow | null> {
  const rows = await q.query<RowRow>('SELECT * FROM table_rows WHERE table_id = $1 AND id = $2', [
    tableId,
    id,
  ]);
  return rows[0] ?? null;
}

export async function findRowBySubject(
  q: Queryable,
  tableId: string,
  type: string,
  subjectId: string,
): Promise<RowRow | null> {
  const rows = await q.query<RowRow>(
    'SELECT * FROM table_rows WHERE table_id = $1 AND subject_type = $2 AND subject_id = $3',
    [tableId, type, subjectId],
  );
  return rows[0] ?? null;
}

export async function nextRowSortOrder(q: Queryable, tableId: string): Promise<number> {
  const rows = await q.query<{ n: number }>(
    'SELECT COALESCE(MAX(sort_order) + 1, 0)::int AS n FROM table_rows WHERE table_id = $1',
    [tableId],
  );
  return rows[0].n;
}

export async function archiveRow(q: Queryable, id: string, now: number): Promise<void> {
  await q.query(
    'UPDATE table_rows SET archived_at = COALESCE(archived_at, $2), updated_at = $2 WHERE id = $1',
    [id, now],
  );
}
