import type { Database } from '../infra/db/database.ts';
import { findWorkspaceJob, type JobRow } from '../infra/repos/jobs.ts';
import { errors } from './errors.ts';

export const INGEST_TASK = 'ingest';

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
    statusText: j.status_text,
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
  const j = await findWorkspaceJob(db, workspaceId, jobId);
  if (!j) throw errors.notFound('Job');
  return j;
}
