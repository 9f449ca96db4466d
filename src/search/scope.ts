import { errors } from '../domain/errors.ts';
import type { Queryable } from '../infra/db/database.ts';
import type { FileItemRow } from '../infra/repos/items.ts';
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
  const rows = await q.query<{ id: string }>(
    `SELECT id FROM files
      WHERE workspace_id = $1 AND deleted_at IS NULL AND (expires_at IS NULL OR expires_at > $2)
        AND ($3::text[] IS NULL OR id = ANY($3::text[]))`,
    [workspaceId, now, datasetIds],
  );
  const ids = rows.map((r) => r.id);
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
  const rows = await q.query<FileItemRow>(
    `SELECT i.* FROM file_items i
       JOIN unnest($1::text[], $2::int[]) AS h(file_id, page) ON i.file_id = h.file_id AND i.col = h.page
      WHERE i.row = 'jpg'`,
    [hits.map((h) => h.fileId), hits.map((h) => h.page)],
  );
  return new Map(rows.map((r) => [`${r.file_id}/${r.col}`, r]));
}
