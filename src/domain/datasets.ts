import type { Database } from '../infra/db/database.ts';
import { type FileRow, repos } from '../infra/repos/index.ts';
import { errors } from './errors.ts';
import { listFiles, type Paging } from './files.ts';

/** v1 names a file a dataset (9) and filters on these types only (4.9). */
const V1_TYPES = new Set(['doc', 'audio', 'video', 'image']);

export const DATASET = 'Dataset';

export async function listDatasets(
  db: Database,
  workspaceId: string,
  q: Paging & { type?: string; sort?: string },
  now: number,
): Promise<Awaited<ReturnType<typeof listFiles>>> {
  const bad = (q.type ?? '')
    .split(',')
    .map((t) => t.trim())
    .filter((t) => t !== '' && !V1_TYPES.has(t));
  if (bad.length > 0)
    throw errors.badRequest(`Unknown type(s): ${bad.join(', ')}. Use doc, audio, video or image.`);
  return listFiles(db, workspaceId, { ...q, types: q.type }, now);
}

/**
 * v1 DELETE (3.4): an immediate expiry. The dataset answers 404 from now on; the expiry
 * sweeper hard-deletes it with its pages, bytes and vectors.
 */
export async function expireDataset(
  db: Database,
  workspaceId: string,
  id: string,
  now: number,
): Promise<FileRow> {
  const f = await repos(db).files.expireReadableFile(workspaceId, id, now);
  if (!f) throw errors.notFound(DATASET);
  return f;
}
