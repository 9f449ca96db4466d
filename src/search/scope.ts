import { errors } from '../domain/errors.ts';
import type { Queryable } from '../infra/db/database.ts';
import { type FileItemRow, repos } from '../infra/repos/index.ts';
import type { RankedPage } from './fuse.ts';

/**
 * The files a search looks at: the workspace's readable files (never deleted or expired,
 * D8), or those of `datasetIds`, every one of which must be readable (404 otherwise, the
 * same answer a read of that dataset gives).
 */
export async function searchableFiles(
  q: Queryable,
  workspaceId: string,
  datasetIds: string[] | null,
  now: number,
): Promise<string[]> {
  const ids = await repos(q).files.readableFileIds(workspaceId, datasetIds, now);
  if (datasetIds) {
    const found = new Set(ids);
    const missing = datasetIds.filter((id) => !found.has(id));
    if (missing.length > 0) throw errors.notFound(`Dataset ${missing.slice(0, 5).join(', ')}`);
  }
  return ids;
}

/** A hit is shown as its page's `jpg` item: the rendered page, the picture a person looks at. */
export async function pageItems(
  q: Queryable,
  hits: readonly RankedPage[],
): Promise<Map<string, FileItemRow>> {
  if (hits.length === 0) return new Map();
  const rows = await repos(q).items.pageItemsOf(hits, 'jpg');
  return new Map(rows.map((r) => [`${r.file_id}/${r.col}`, r]));
}
