import type { Queryable } from '../db/database.ts';
import { selectPage, updateByIdSql } from '../db/sql.ts';

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
  now: number,
): Promise<void> {
  const { sql, params } = updateByIdSql('jobs', id, patch, now);
  await q.query(sql, params);
}

export const JOB_SORT_COLUMNS: Readonly<Record<string, string>> = {
  createdAt: 'created_at',
  updatedAt: 'updated_at',
  startedAt: 'started_at',
  finishedAt: 'finished_at',
  status: 'status',
  type: 'type',
  id: 'id',
};

/**
 * A workspace's jobs with one of `statuses`; finished ones (SUCCESS, ERROR) only while they
 * finished after `finishedAfter` (the v1 list keeps them 24 hours, 4.9).
 */
export async function listWorkspaceJobs(
  q: Queryable,
  workspaceId: string,
  opts: { statuses: JobStatus[]; finishedAfter: number; orderBy: string; offset: number; limit: number },
): Promise<{ rows: JobRow[]; total: number }> {
  const where = `workspace_id = $1 AND status = ANY($2::text[])
    AND (status NOT IN ('SUCCESS', 'ERROR') OR finished_at IS NULL OR finished_at > $3)`;
  return selectPage<JobRow>(q, 'jobs', where, [workspaceId, opts.statuses, opts.finishedAfter], opts);
}

/** The file's jobs of one type, newest first. */
export async function findFileJobs(q: Queryable, fileId: string, type: JobRow['type']): Promise<JobRow[]> {
  return q.query<JobRow>('SELECT * FROM jobs WHERE file_id = $1 AND type = $2 ORDER BY created_at DESC, id', [
    fileId,
    type,
  ]);
}
