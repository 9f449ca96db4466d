import type { Database } from '../infra/db/database.ts';
import { type JobRow, repos } from '../infra/repos/index.ts';
import { DATASET } from './datasets.ts';
import { errors } from './errors.ts';
import { queueIngestJob } from './jobs.ts';

/**
 * `POST /v1/datasets/:id/vectorize` (4.8): a vectorize job for a dataset already uploaded.
 * Refused (400) once a vectorize job has succeeded for it; while one is still unfinished that
 * job is returned rather than a second one started. The ingest handler skips pages already
 * stored, so pages are never charged twice. The dataset row is locked so that two requests at
 * once create one job.
 */
export async function requestVectorize(
  db: Database,
  workspaceId: string,
  datasetId: string,
  now: number,
): Promise<JobRow> {
  return db.transaction(async (tx) => {
    const file = await repos(tx).files.findReadableFile(workspaceId, datasetId, now, { forUpdate: true });
    if (!file) throw errors.notFound(DATASET);
    const earlier = await repos(tx).jobs.findFileJobs(file.id, 'vectorize');
    if (earlier.some((j) => j.status === 'SUCCESS'))
      throw errors.badRequest('This dataset is already vectorized: a vectorize job succeeded for it.');
    const running = earlier.find((j) => j.status !== 'ERROR');
    if (running) return running;
    return queueIngestJob(
      tx,
      { workspaceId, fileId: file.id },
      { type: 'vectorize', apiVersion: 'v1', status: 'IN_PROGRESS' },
      now,
    );
  });
}
