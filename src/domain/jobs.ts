import type { Database, Queryable } from '../infra/db/database.ts';
import { newId } from '../infra/ids.ts';
import { enqueue } from '../infra/queue.ts';
import { JOB_SORT_COLUMNS, type JobRow, type JobStatus, repos } from '../infra/repos/index.ts';
import type { TaskKind } from '../infra/task-kinds.ts';
import { errors, withoutServerPaths } from './errors.ts';
import { clampPaging, orderBy, type Paging, sortFields } from './files.ts';

export const INGEST_TASK = 'ingest' satisfies TaskKind;

/** A new ingest (extract or vectorize) job and its queued task, in the caller's transaction. */
export async function queueIngestJob(
  tx: Queryable,
  target: { workspaceId: string; fileId: string },
  job: { type: JobRow['type']; apiVersion: JobRow['api_version']; status: 'NOT_STARTED' | 'IN_PROGRESS' },
  now: number,
): Promise<JobRow> {
  const row: JobRow = {
    id: newId('dsj'),
    workspace_id: target.workspaceId,
    file_id: target.fileId,
    type: job.type,
    api_version: job.apiVersion,
    status: job.status,
    status_text: null,
    pages_done: 0,
    started_at: job.status === 'IN_PROGRESS' ? now : null,
    finished_at: null,
    canceled_at: null,
    created_at: now,
    updated_at: now,
  };
  await repos(tx).jobs.insertJob(row);
  await enqueue(tx, INGEST_TASK, row.id, now, { workspaceId: target.workspaceId });
  return row;
}

export interface JobView {
  id: string;
  fileId?: string;
  datasetId?: string;
  type: string;
  status: JobRow['status'];
  statusText: string | null;
  startedAt: number | null;
  finishedAt: number | null;
  canceledAt: number | null;
  createdAt: number;
  updatedAt: number;
}

/** v2 names the file `fileId` and the type `extract`; v1 says `datasetId` and `datasets/extract` (9). */
export function toJobView(j: JobRow, version: 'v1' | 'v2'): JobView {
  const common = {
    id: j.id,
    status: j.status,
    // Rows written before statusTexts were cleaned may still name server paths.
    statusText: j.status_text === null ? null : withoutServerPaths(j.status_text),
    startedAt: j.started_at,
    finishedAt: j.finished_at,
    canceledAt: j.canceled_at,
    createdAt: j.created_at,
    updatedAt: j.updated_at,
  };
  return version === 'v2'
    ? { ...common, fileId: j.file_id, type: j.type }
    : { ...common, datasetId: j.file_id, type: `datasets/${j.type}` };
}

export async function getJob(db: Database, workspaceId: string, jobId: string): Promise<JobRow> {
  const j = await repos(db).jobs.findWorkspaceJob(workspaceId, jobId);
  if (!j) throw errors.notFound('Job');
  return j;
}

const STATUSES: readonly JobStatus[] = ['NOT_STARTED', 'IN_QUEUE', 'IN_PROGRESS', 'SUCCESS', 'ERROR'];

/** Finished jobs stay in the v1 list this long after `finishedAt`, and readable by id for good (4.9, 8). */
export const FINISHED_JOBS_LISTED_MS = 24 * 3_600_000;

/** `statuses`: comma-separated; absent means all; an unknown name is a 400. */
export function parseStatuses(statuses: string | undefined): JobStatus[] {
  const list = (statuses ?? '')
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
  if (list.length === 0) return [...STATUSES];
  const bad = list.filter((s) => !STATUSES.includes(s as JobStatus));
  if (bad.length > 0)
    throw errors.badRequest(`Unknown status(es): ${bad.join(', ')}. Use ${STATUSES.join(', ')}.`);
  return STATUSES.filter((s) => list.includes(s));
}

/** The v1 jobs list (4.9): v1 and v2 jobs alike, newest first unless sorted. */
export async function listJobs(
  db: Database,
  workspaceId: string,
  q: Paging & { statuses?: string; sort?: string },
  now: number,
): Promise<{
  rows: JobRow[];
  total: number;
  offset: number;
  limit: number;
  statuses: JobStatus[];
  sort: string[];
}> {
  const statuses = parseStatuses(q.statuses);
  const paging = clampPaging(q);
  const fields = sortFields(q.sort, JOB_SORT_COLUMNS);
  const sort = fields.length > 0 ? fields : ['-createdAt'];
  const { rows, total } = await repos(db).jobs.listWorkspaceJobs(workspaceId, {
    statuses,
    finishedAfter: now - FINISHED_JOBS_LISTED_MS,
    orderBy: orderBy(sort.join(','), JOB_SORT_COLUMNS, 'created_at DESC, id'),
    ...paging,
  });
  return { rows, total, ...paging, statuses, sort };
}
