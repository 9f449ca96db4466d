import type { Queryable } from '../db/database.ts';
import { updateByIdSql, updateWhereSql } from '../db/sql.ts';

export interface BundleRow {
  id: string;
  workspace_id: string;
  name: string;
  color: string | null;
  documents_version: number;
  archived_at: number | null;
  created_at: number;
  updated_at: number;
}

export interface MemberRow {
  bundle_id: string;
  file_id: string;
  is_primary: boolean;
  role: string | null;
  effective_at: number | null;
  sort_order: number;
  created_at: number;
  updated_at: number;
}

export async function insertBundle(q: Queryable, b: BundleRow): Promise<void> {
  await q.query(
    `INSERT INTO bundles (id, workspace_id, name, color, documents_version, archived_at, created_at, updated_at)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8)`,
    [b.id, b.workspace_id, b.name, b.color, b.documents_version, b.archived_at, b.created_at, b.updated_at],
  );
}

export async function findBundle(
  q: Queryable,
  workspaceId: string,
  id: string,
  opts: { forUpdate?: boolean } = {},
): Promise<BundleRow | null> {
  const rows = await q.query<BundleRow>(
    `SELECT * FROM bundles WHERE workspace_id = $1 AND id = $2${opts.forUpdate ? ' FOR UPDATE' : ''}`,
    [workspaceId, id],
  );
  return rows[0] ?? null;
}

export async function listBundles(q: Queryable, workspaceId: string): Promise<BundleRow[]> {
  return q.query<BundleRow>(
    'SELECT * FROM bundles WHERE workspace_id = $1 ORDER BY created_at DESC, id DESC',
    [workspaceId],
  );
}

export async function updateBundle(
  q: Queryable,
  id: string,
  patch: Partial<BundleRow>,
  now: number,
): Promise<void> {
  const { sql, params } = updateByIdSql('bundles', id, patch, now);
  await q.query(sql, params);
}

export async function insertMember(q: Queryable, m: MemberRow): Promise<void> {
  await q.query(
    `INSERT INTO bundle_members (bundle_id, file_id, is_primary, role, effective_at, sort_order, created_at, updated_at)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8)`,
    [m.bundle_id, m.file_id, m.is_primary, m.role, m.effective_at, m.sort_order, m.created_at, m.updated_at],
  );
}

export async function listMembers(q: Queryable, bundleId: string): Promise<MemberRow[]> {
  return q.query<MemberRow>(
    'SELECT * FROM bundle_members WHERE bundle_id = $1 ORDER BY sort_order, created_at, file_id',
    [bundleId],
  );
}

export async function clearPrimary(q: Queryable, bundleId: string, now: number): Promise<void> {
  await q.query(
    'UPDATE bundle_members SET is_primary = false, updated_at = $2 WHERE bundle_id = $1 AND is_primary',
    [bundleId, now],
  );
}

export async function updateMember(
  q: Queryable,
  bundleId: string,
  fileId: string,
  patch: Partial<MemberRow>,
  now: number,
): Promise<void> {
  const { sql, params } = updateWhereSql(
    'bundle_members',
    { bundle_id: bundleId, file_id: fileId },
    patch,
    now,
  );
  await q.query(sql, params);
}

export async function deleteMember(q: Queryable, bundleId: string, fileId: string): Promise<boolean> {
  const rows = await q.query(
    'DELETE FROM bundle_members WHERE bundle_id = $1 AND file_id = $2 RETURNING file_id',
    [bundleId, fileId],
  );
  return rows.length === 1;
}

/** Readable files of the workspace among `ids`. */
export async function existingFileIds(
  q: Queryable,
  workspaceId: string,
  ids: string[],
  now: number,
): Promise<Set<string>> {
  const rows = await q.query<{ id: string }>(
    `SELECT id FROM files WHERE workspace_id = $1 AND id = ANY($2::text[])
       AND deleted_at IS NULL AND (expires_at IS NULL OR expires_at > $3)`,
    [workspaceId, ids, now],
  );
  return new Set(rows.map((r) => r.id));
}
