import type { Queryable } from '../db/database.ts';
import { updateByIdSql } from '../db/sql.ts';

export interface TableRow {
  id: string;
  workspace_id: string;
  name: string;
  standing: boolean;
  color: string | null;
  locale: string | null;
  archived_at: number | null;
  created_at: number;
  updated_at: number;
}

export async function insertTable(q: Queryable, t: TableRow): Promise<void> {
  await q.query(
    `INSERT INTO extraction_tables (id, workspace_id, name, standing, color, locale, archived_at, created_at, updated_at)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)`,
    [t.id, t.workspace_id, t.name, t.standing, t.color, t.locale, t.archived_at, t.created_at, t.updated_at],
  );
}

export async function findTable(
  q: Queryable,
  workspaceId: string,
  id: string,
  opts: { forUpdate?: boolean } = {},
): Promise<TableRow | null> {
  const rows = await q.query<TableRow>(
    `SELECT * FROM extraction_tables WHERE workspace_id = $1 AND id = $2${opts.forUpdate ? ' FOR UPDATE' : ''}`,
    [workspaceId, id],
  );
  return rows[0] ?? null;
}

export async function listTables(q: Queryable, workspaceId: string): Promise<TableRow[]> {
  return q.query<TableRow>(
    'SELECT * FROM extraction_tables WHERE workspace_id = $1 ORDER BY created_at DESC, id DESC',
    [workspaceId],
  );
}

export async function updateTable(
  q: Queryable,
  id: string,
  patch: Partial<Pick<TableRow, 'name' | 'standing' | 'color' | 'locale' | 'archived_at'>>,
  now: number,
): Promise<void> {
  const { sql, params } = updateByIdSql('extraction_tables', id, patch, now);
  await q.query(sql, params);
}

/** Standing (auto-mode) tables of a workspace that are not archived, locked, in id order. */
export async function lockStandingTables(q: Queryable, workspaceId: string): Promise<TableRow[]> {
  return q.query<TableRow>(
    `SELECT * FROM extraction_tables WHERE workspace_id = $1 AND standing AND archived_at IS NULL
      ORDER BY id FOR UPDATE`,
    [workspaceId],
  );
}
