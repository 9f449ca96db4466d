import type { Queryable } from '../db/database.ts';
import { selectPage, updateByIdSql } from '../db/sql.ts';

export interface FileRow {
  id: string;
  workspace_id: string;
  type: 'doc' | 'image' | 'audio' | 'video';
  file_name: string;
  file_ext: string;
  mime_type: string;
  file_size: number;
  sha256: string | null;
  source_url: string | null;
  item_count: number;
  state: 'processing' | 'ready' | 'failed';
  expires_at: number | null;
  deleted_at: number | null;
  created_at: number;
  updated_at: number | null;
}

/** A file is readable until deleted or past its expiry (decisions.md D8). */
const READABLE = 'deleted_at IS NULL AND (expires_at IS NULL OR expires_at > $NOW)';
const readable = (nowParam: number) => READABLE.replace('$NOW', `$${nowParam}`);

export async function insertFile(q: Queryable, f: FileRow): Promise<void> {
  await q.query(
    `INSERT INTO files (id, workspace_id, type, file_name, file_ext, mime_type, file_size, sha256, source_url,
                        item_count, state, expires_at, deleted_at, created_at, updated_at)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15)`,
    [
      f.id,
      f.workspace_id,
      f.type,
      f.file_name,
      f.file_ext,
      f.mime_type,
      f.file_size,
      f.sha256,
      f.source_url,
      f.item_count,
      f.state,
      f.expires_at,
      f.deleted_at,
      f.created_at,
      f.updated_at,
    ],
  );
}

export async function findReadableFile(
  q: Queryable,
  workspaceId: string,
  id: string,
  now: number,
  opts: { forUpdate?: boolean } = {},
): Promise<FileRow | null> {
  const rows = await q.query<FileRow>(
    `SELECT * FROM files WHERE workspace_id = $1 AND id = $2 AND ${readable(3)}${opts.forUpdate ? ' FOR UPDATE' : ''}`,
    [workspaceId, id, now],
  );
  return rows[0] ?? null;
}

/** Any state, deleted included: for the worker and the purge. */
export async function findFileById(
  q: Queryable,
  id: string,
  opts: { forUpdate?: boolean } = {},
): Promise<FileRow | null> {
  const rows = await q.query<FileRow>(
    `SELECT * FROM files WHERE id = $1${opts.forUpdate ? ' FOR UPDATE' : ''}`,
    [id],
  );
  return rows[0] ?? null;
}

export async function findReadableFileAnyWorkspace(
  q: Queryable,
  id: string,
  now: number,
): Promise<FileRow | null> {
  const rows = await q.query<FileRow>(`SELECT * FROM files WHERE id = $1 AND ${readable(2)}`, [id, now]);
  return rows[0] ?? null;
}

export const FILE_SORT_COLUMNS: Readonly<Record<string, string>> = {
  createdAt: 'created_at',
  updatedAt: 'updated_at',
  fileName: 'file_name',
  fileSize: 'file_size',
  itemCount: 'item_count',
  expiresAt: 'expires_at',
  type: 'type',
  id: 'id',
};

export async function listReadableFiles(
  q: Queryable,
  workspaceId: string,
  opts: { types: string[] | null; orderBy: string; offset: number; limit: number },
  now: number,
): Promise<{ rows: FileRow[]; total: number }> {
  const params: unknown[] = [workspaceId, now];
  let where = `workspace_id = $1 AND ${readable(2)}`;
  if (opts.types) {
    params.push(opts.types);
    where += ` AND type = ANY($${params.length}::text[])`;
  }
  return selectPage<FileRow>(q, 'files', where, params, opts);
}

export async function updateFile(
  q: Queryable,
  id: string,
  patch: Partial<FileRow>,
  now: number,
): Promise<void> {
  const { sql, params } = updateByIdSql('files', id, patch, now);
  await q.query(sql, params);
}

/** Marks readable files deleted; returns the ids that were. */
export async function markFilesDeleted(
  q: Queryable,
  workspaceId: string,
  ids: string[],
  now: number,
): Promise<string[]> {
  const rows = await q.query<{ id: string }>(
    `UPDATE files SET deleted_at = $3, updated_at = $3
      WHERE workspace_id = $1 AND id = ANY($2::text[]) AND ${readable(3)} RETURNING id`,
    [workspaceId, ids, now],
  );
  return rows.map((r) => r.id);
}

export async function hardDeleteFile(q: Queryable, id: string): Promise<void> {
  await q.query('DELETE FROM files WHERE id = $1', [id]);
}

/**
 * For the sweeper: marks up to `limit` expired files deleted and returns their ids. Rows
 * another sweeper holds are skipped, not waited for, so concurrent sweeps split the work
 * and never both claim one file.
 */
export async function claimExpiredFiles(q: Queryable, now: number, limit: number): Promise<string[]> {
  const rows = await q.query<{ id: string }>(
    `UPDATE files SET deleted_at = $1, updated_at = $1
      WHERE id IN (SELECT id FROM files
                    WHERE deleted_at IS NULL AND expires_at IS NOT NULL AND expires_at <= $1
                    ORDER BY expires_at, id LIMIT $2 FOR UPDATE SKIP LOCKED)
        AND deleted_at IS NULL
      RETURNING id`,
    [now, limit],
  );
  return rows.map((r) => r.id);
}

/** v1 DELETE (3.4): an immediate expiry; the file answers 404 from now on. Null when not readable. */
export async function expireReadableFile(
  q: Queryable,
  workspaceId: string,
  id: string,
  now: number,
): Promise<FileRow | null> {
  const rows = await q.query<FileRow>(
    `UPDATE files SET expires_at = $3, updated_at = $3
      WHERE workspace_id = $1 AND id = $2 AND ${readable(3)} RETURNING *`,
    [workspaceId, id, now],
  );
  return rows[0] ?? null;
}

/** Ids of the workspace's readable files (D8), all of them or those among `ids`. */
export async function readableFileIds(
  q: Queryable,
  workspaceId: string,
  ids: readonly string[] | null,
  now: number,
): Promise<string[]> {
  const rows = await q.query<{ id: string }>(
    `SELECT id FROM files
      WHERE workspace_id = $1 AND deleted_at IS NULL AND (expires_at IS NULL OR expires_at > $2)
        AND ($3::text[] IS NULL OR id = ANY($3::text[]))`,
    [workspaceId, now, ids],
  );
  return rows.map((r) => r.id);
}
