import type { Queryable } from '../db/database.ts';
import { updateByIdSql } from '../db/sql.ts';

export type JobStatus = 'NOT_STARTED' | 'IN_QUEUE' | 'IN_PROGRESS' | 'SUCCESS' | 'ERROR';

export interface JobRow {
  id: string;
  workspace_id: string;
  file_id: string;
  type: 'extract' | 'vectorize';
  api_version: 'v1' | 'v2';
  status: JobStatus;
  status_text: string | null;
  pages_done: number;
  started_at: number | null;
  finished_at: number | null;
  canceled_at: number | null;
  created_at: number;
  updated_at: number;
}

export async function insertJob(q: Queryable, j: JobRow): Promise<void> {
  await q.query(
    `INSERT INTO jobs (id, workspace_id, file_id, type, api_version, status, status_text, pages_done,
                       started_at, finished_at, canceled_at, created_at, updated_at)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13)`,
    [
      j.id,
      j.workspace_id,
      j.file_id,
      j.type,
      j.api_version,
      j.status,
      j.status_text,
      j.pages_done,
      j.started_at,
      j.finished_at,
      j.canceled_at,
      j.created_at,
      j.updated_at,
    ],
  );
}

export async function findJob(
  q: Queryable,
  id: string,
  opts: { forUpdate?: boolean } = {},
): Promise<JobRow | null> {
  const rows = await q.query<JobRow>(
    `SELECT * FROM jobs WHERE id = $1${opts.forUpdate ? ' FOR UPDATE' : ''}`,
    [id],
  );
  return rows[0] ?? null;
}

export async function findWorkspaceJob(
  q: Queryable,
  workspaceId: string,
  id: string,
): Promise<JobRow | null> {
  const rows = await q.query<JobRow>('SELECT * FROM jobs WHERE workspace_id = $1 AND id = $2', [
    workspaceId,
    id,
  ]);
  return rows[0] ?? null;
}

export async function updateJob(
  q: Queryable,
  id: string,
  patch: Partial<JobRow>,
  now = Date.now(),
): Promise<void> {
  const { sql, params } = updateByIdSql('jobs', id, patch, now);
  await q.query(sql, params);
}
