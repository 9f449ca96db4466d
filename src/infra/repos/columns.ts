import type { Queryable } from '../db/database.ts';
import { updateByIdSql } from '../db/sql.ts';

export interface ColumnRow {
  id: string;
  table_id: string;
  name: string;
  prompt: string;
  output_type: string;
  config: string | null;
  is_compositional: boolean;
  credit_rate: number;
  sort_order: number;
  version: number;
  archived_at: number | null;
  created_at: number;
  updated_at: number;
}

export async function insertColumn(q: Queryable, c: ColumnRow): Promise<void> {
  await q.query(
    `INSERT INTO table_columns (id, table_id, name, prompt, output_type, config, is_compositional, credit_rate,
                                sort_order, version, archived_at, created_at, updated_at)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13)`,
    [
      c.id,
      c.table_id,
      c.name,
      c.prompt,
      c.output_type,
      c.config,
      c.is_compositional,
      c.credit_rate,
      c.sort_order,
      c.version,
      c.archived_at,
      c.created_at,
      c.updated_at,
    ],
  );
}

export async function listColumns(q: Queryable, tableId: string): Promise<ColumnRow[]> {
  return q.query<ColumnRow>(
    'SELECT * FROM table_columns WHERE table_id = $1 ORDER BY sort_order, created_at, id',
    [tableId],
  );
}

export async function findColumn(
  q: Queryable,
  tableId: string,
  id: string,
  opts: { forUpdate?: boolean } = {},
): Promise<ColumnRow | null> {
  const rows = await q.query<ColumnRow>(
    `SELECT * FROM table_columns WHERE table_id = $1 AND id = $2${opts.forUpdate ? ' FOR UPDATE' : ''}`,
    [tableId, id],
  );
  return rows[0] ?? null;
}

export async function nextColumnSortOrder(q: Queryable, tableId: string): Promise<number> {
  const rows = await q.query<{ n: number }>(
    'SELECT COALESCE(MAX(sort_order) + 1, 0)::int AS n FROM table_columns WHERE table_id = $1',
    [tableId],
  );
  return rows[0].n;
}

export async function updateColumn(
  q: Queryable,
  id: string,
  patch: Partial<ColumnRow>,
  now: number,
): Promise<void> {
  const { sql, params } = updateByIdSql('table_columns', id, patch, now);
  await q.query(sql, params);
}

/** A table's locale governs generated prose: every active column's answers go stale. */
export async function bumpActiveColumnVersions(q: Queryable, tableId: string, now: number): Promise<void> {
  await q.query(
    'UPDATE table_columns SET version = version + 1, updated_at = $2 WHERE table_id = $1 AND archived_at IS NULL',
    [tableId, now],
  );
}
