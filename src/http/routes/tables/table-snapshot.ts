import { type BodyLayout, buildTableBody, layoutBytes } from '../../../domain/table-body.ts';
import { repos, snapshot } from '../../../infra/repos/index.ts';
import type { AppContext } from '../../context.ts';
import { type Snapshot, SnapshotCache } from './snapshot-cache.ts';

/** GET-table bodies held per app, at most this many bytes (bodies and layouts). */
const CACHE_BYTES = 256 * 1024 * 1024;

/** One cache per app, shared by GET table and GET …/cells: both serve the same cells' bytes. */
const caches = new WeakMap<AppContext, SnapshotCache<BodyLayout>>();

function cacheOf(ctx: AppContext): SnapshotCache<BodyLayout> {
  let cache = caches.get(ctx);
  if (!cache) {
    cache = new SnapshotCache<BodyLayout>(CACHE_BYTES);
    caches.set(ctx, cache);
  }
  return cache;
}

export interface TableSnapshot {
  /** The GET-table body of the state read, with its ETag and layout. */
  entry: Snapshot<BodyLayout>;
  /** How many cells that body holds. */
  cellCount: number;
}

/**
 * The GET-table body of the table's current state: the one filed under its fingerprint, or one
 * built (reusing what it can of the body filed before) and filed. Fingerprint and content come
 * from one snapshot, so a body is never filed under a newer state. Each row's cells in it are
 * the JSON text the database writes (repos cells.listRowCellsJson), which GET …/cells serves too.
 */
export function readTableSnapshot(
  ctx: AppContext,
  workspaceId: string,
  tableId: string,
): Promise<TableSnapshot> {
  const cache = cacheOf(ctx);
  return snapshot(ctx.db, async (tx) => {
    const fp = await repos(tx).tableFingerprint.tableFingerprint(tableId);
    const hit = cache.get(tableId, fp.key);
    if (hit) return { entry: hit, cellCount: fp.cellCount };
    const { body, layout } = await buildTableBody(tx, workspaceId, tableId, fp, cache.latest(tableId));
    return {
      entry: cache.set(tableId, fp.key, body, layout, layoutBytes(layout)),
      cellCount: fp.cellCount,
    };
  });
}

const CELLS_CLOSE = Buffer.from(']}}');

/**
 * The cells of a GET-table body as they sit in it: the cell objects, comma-separated, without
 * the array's brackets. A view of the body, not a copy.
 */
export function cellsOfBody(entry: Snapshot<BodyLayout>): Buffer {
  const { body, layout } = entry;
  const end = body.length - CELLS_CLOSE.length;
  if (body[layout.headEnd - 1] !== 0x5b || !body.subarray(end).equals(CELLS_CLOSE)) {
    throw new Error('GET table: unexpected body shape around the cells');
  }
  return body.subarray(layout.headEnd, end);
}
