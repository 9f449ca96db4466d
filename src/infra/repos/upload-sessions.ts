import type { Queryable } from '../db/database.ts';

export type UploadSessionState = 'open' | 'ending' | 'ended' | 'aborted' | 'expired';

export interface UploadSessionRow {
  id: string;
  workspace_id: string;
  key_hash: string;
  file_name: string;
  file_ext: string;
  file_type: string;
  job_type: 'extract' | 'vectorize';
  expiry_in_days: number | null;
  state: UploadSessionState;
  file_id: string | null;
  last_activity_at: number;
  chunks_deleted_at: number | null;
  created_at: number;
  updated_at: number;
}

export interface UploadPartRow {
  session_id: string;
  part_number: number;
  etag: string;
  byte_size: number;
  blob_key: string;
  created_at: number;
}

export async function insertUploadSession(q: Queryable, s: UploadSessionRow): Promise<void> {
  await q.query(
    `INSERT INTO upload_sessions (id, workspace_id, key_hash, file_name, file_ext, file_type, job_type,
                                  expiry_in_days, state, file_id, last_activity_at, chunks_deleted_at,
                                  created_at, updated_at)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14)`,
    [
      s.id,
      s.workspace_id,
      s.key_hash,
      s.file_name,
      s.file_ext,
      s.file_type,
      s.job_type,
      s.expiry_in_days,
      s.state,
      s.file_id,
      s.last_activity_at,
      s.chunks_deleted_at,
      s.created_at,
      s.updated_at,
    ],
  );
}

/** Looked up by the key's hash and the caller's workspace: another workspace's key is simply not found. */
export async function findUploadSession(
  q: Queryable,
  workspaceId: string,
  keyHash: string,
  opts: { forUpdate?: boolean } = {},
): Promise<UploadSessionRow | null> {
  const rows = await q.query<UploadSessionRow>(
    `SELECT * FROM upload_sessions WHERE key_hash = $1 AND workspace_id = $2${opts.forUpdate ? ' FOR UPDATE' : ''}`,
    [keyHash, workspaceId],
  );
  return rows[0] ?? null;
}

/**
 * Moves a session from one state to another only if it is still in `from` and was active
 * after `activeSince`; the row count says whether this caller won (a conditional update,
 * so two requests or processes never both get it).
 */
export async function transitionUploadSession(
  q: Queryable,
  id: string,
  from: UploadSessionState,
  to: UploadSessionState,
  activeSince: number,
  now: number,
  extra: { fileId?: string } = {},
): Promise<boolean> {
  const rows = await q.query<{ id: string }>(
    `UPDATE upload_sessions
        SET state = $3, last_activity_at = $4, updated_at = $4, file_id = COALESCE($6, file_id)
      WHERE id = $1 AND state = $2 AND last_activity_at >= $5
      RETURNING id`,
    [id, from, to, now, activeSince, extra.fileId ?? null],
  );
  return rows.length === 1;
}

export async function touchUploadSession(q: Queryable, id: string, now: number): Promise<void> {
  await q.query('UPDATE upload_sessions SET last_activity_at = $2, updated_at = $2 WHERE id = $1', [id, now]);
}

export async function markChunksDeleted(q: Queryable, id: string, now: number): Promise<void> {
  await q.query('DELETE FROM upload_session_parts WHERE session_id = $1', [id]);
  await q.query('UPDATE upload_sessions SET chunks_deleted_at = $2, updated_at = $2 WHERE id = $1', [
    id,
    now,
  ]);
}

export async function listParts(q: Queryable, sessionId: string): Promise<UploadPartRow[]> {
  return q.query<UploadPartRow>(
    'SELECT * FROM upload_session_parts WHERE session_id = $1 ORDER BY part_number',
    [sessionId],
  );
}

/** Bytes stored by every part except `exceptPart` (the one being replaced). */
export async function storedBytes(q: Queryable, sessionId: string, exceptPart = 0): Promise<number> {
  const rows = await q.query<{ n: number }>(
    `SELECT COALESCE(sum(byte_size), 0)::int8 AS n FROM upload_session_parts
      WHERE session_id = $1 AND part_number <> $2`,
    [sessionId, exceptPart],
  );
  return rows[0]?.n ?? 0;
}

/** Inserts or replaces a part; returns the blob key of the part it replaced, if any. */
export async function upsertPart(q: Queryable, p: UploadPartRow): Promise<string | null> {
  const old = await q.query<{ blob_key: string }>(
    'SELECT blob_key FROM upload_session_parts WHERE session_id = $1 AND part_number = $2 FOR UPDATE',
    [p.session_id, p.part_number],
  );
  await q.query(
    `INSERT INTO upload_session_parts (session_id, part_number, etag, byte_size, blob_key, created_at)
     VALUES ($1, $2, $3, $4, $5, $6)
     ON CONFLICT (session_id, part_number)
     DO UPDATE SET etag = EXCLUDED.etag, byte_size = EXCLUDED.byte_size, blob_key = EXCLUDED.blob_key,
                   created_at = EXCLUDED.created_at`,
    [p.session_id, p.part_number, p.etag, p.byte_size, p.blob_key, p.created_at],
  );
  return old[0]?.blob_key ?? null;
}

/**
 * Claims up to `limit` sessions whose chunks must go: live sessions idle since before
 * `cutoff` (they become expired), and finished ones whose chunk removal was interrupted.
 * Claiming bumps updated_at, so another process skips them (SKIP LOCKED now, the cutoff
 * later) while this one deletes the chunks.
 */
export async function claimSessionsToSweep(
  q: Queryable,
  cutoff: number,
  now: number,
  limit: number,
): Promise<string[]> {
  const rows = await q.query<{ id: string }>(
    `UPDATE upload_sessions
        SET state = CASE WHEN state IN ('open', 'ending') THEN 'expired' ELSE state END, updated_at = $2
      WHERE id IN (
        SELECT id FROM upload_sessions
         WHERE chunks_deleted_at IS NULL
           AND last_activity_at < $1
           AND (state IN ('open', 'ending') OR updated_at < $1)
         ORDER BY last_activity_at
         LIMIT $3
         FOR UPDATE SKIP LOCKED)
      RETURNING id`,
    [cutoff, now, limit],
  );
  return rows.map((r) => r.id);
}

/** The session's part rows go once their bytes are assembled into a file. */
export async function deleteParts(q: Queryable, sessionId: string): Promise<void> {
  await q.query('DELETE FROM upload_session_parts WHERE session_id = $1', [sessionId]);
}
