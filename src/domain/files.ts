import type { Clock } from '../infra/clock.ts';
import type { Database } from '../infra/db/database.ts';
import { enqueue } from '../infra/queue.ts';
import {
  FILE_SORT_COLUMNS,
  type FileItemRow,
  type FileRow,
  ITEM_SORT_COLUMNS,
  ITEM_UPLOAD_ORDER,
  type ItemRow,
  repos,
} from '../infra/repos/index.ts';
import type { TaskKind } from '../infra/task-kinds.ts';
import { errors } from './errors.ts';
import { clampLifetime, mintShare, SHARE_DEFAULT_SECONDS, type Share } from './share-tokens.ts';

export const PURGE_TASK = 'file.purge' satisfies TaskKind;

export interface FileView {
  id: string;
  workspaceId: string;
  type: string;
  fileName: string;
  fileExt: string;
  mimeType: string;
  fileSize: number;
  itemCount: number;
  createdAt: number;
  updatedAt: number | null;
  expiresAt: number | null;
  share: Share;
}

export interface ItemView {
  id: string;
  fileId: string;
  row: ItemRow;
  col: number;
  createdAt: number;
  share: Share;
}

/** What minting a share needs; passed in so the domain never reads settings or the clock. */
export interface Signer {
  secret: string;
  baseUrl: string;
  /** The time a link is minted at (epoch ms): its expiry counts from here. */
  now: number;
}

export function toFileView(f: FileRow, signer: Signer, lifetimeSeconds: number): FileView {
  return {
    id: f.id,
    workspaceId: f.workspace_id,
    type: f.type,
    fileName: f.file_name,
    fileExt: f.file_ext,
    mimeType: f.mime_type,
    fileSize: f.file_size,
    itemCount: f.item_count,
    createdAt: f.created_at,
    updatedAt: f.updated_at,
    expiresAt: f.expires_at,
    share: mintShare(signer.secret, signer.baseUrl, f.id, lifetimeSeconds, signer.now),
  };
}

export function toItemView(i: FileItemRow, signer: Signer, lifetimeSeconds: number): ItemView {
  return {
    id: i.id,
    fileId: i.file_id,
    row: i.row,
    col: i.col,
    createdAt: i.created_at,
    share: mintShare(signer.secret, signer.baseUrl, i.id, lifetimeSeconds, signer.now),
  };
}

/** The known names of `sort` (comma-separated, `-` for descending), first mention of a field wins. */
export function sortFields(sort: string | undefined, columns: Readonly<Record<string, string>>): string[] {
  const seen = new Set<string>();
  const fields: string[] = [];
  for (const raw of (sort ?? '').split(',')) {
    const name = raw.trim().replace(/^[-+]/, '');
    const column = columns[name];
    if (!column || seen.has(column)) continue;
    seen.add(column);
    fields.push(raw.trim().startsWith('-') ? `-${name}` : name);
  }
  return fields;
}

/** `sort`: comma-separated names, `-` for descending; unknown names are ignored (4.6). */
export function orderBy(
  sort: string | undefined,
  columns: Readonly<Record<string, string>>,
  fallback: string,
): string {
  const parts = sortFields(sort, columns).map((f) =>
    f.startsWith('-') ? `${columns[f.slice(1)]} DESC` : `${columns[f]} ASC`,
  );
  return parts.length > 0 ? `${parts.join(', ')}, id` : fallback;
}

export interface Paging {
  offset?: number;
  limit?: number;
}

/** 4.6: offset default 0; limit default 10, clamped to 1-100. */
export function clampPaging(p: Paging): { offset: number; limit: number } {
  const offset = Math.max(0, Math.floor(p.offset ?? 0));
  const limit = Math.min(100, Math.max(1, Math.floor(p.limit ?? 10)));
  return { offset, limit };
}

const FILE_TYPES = new Set(['doc', 'image', 'image_list', 'audio', 'video']);

export function parseTypes(types: string | undefined): string[] | null {
  if (!types) return null;
  const list = types
    .split(',')
    .map((t) => t.trim())
    .filter(Boolean);
  const bad = list.filter((t) => !FILE_TYPES.has(t));
  if (bad.length > 0)
    throw errors.badRequest(
      `Unknown file type(s): ${bad.join(', ')}. Use doc, image, image_list, audio or video.`,
    );
  // image_list is a filter over image files: every image file is a one-page picture list.
  return [...new Set(list.map((t) => (t === 'image_list' ? 'image' : t)))];
}

/** `cols`: page numbers and inclusive ranges such as `1:10`. */
export function parseCols(cols: string | undefined): number[] | null {
  if (!cols) return null;
  const out = new Set<number>();
  for (const part of cols
    .split(',')
    .map((c) => c.trim())
    .filter(Boolean)) {
    const m = /^(\d{1,6})(?::(\d{1,6}))?$/.exec(part);
    if (!m) throw errors.badRequest(`cols: "${part}" is not a page number or a range like 1:10.`);
    const from = Number(m[1]);
    const to = m[2] === undefined ? from : Number(m[2]);
    if (to < from || to - from > 10_000) throw errors.badRequest(`cols: range "${part}" is not valid.`);
    for (let c = from; c <= to; c++) out.add(c);
  }
  return [...out];
}

export function parseRow(row: string | undefined): ItemRow[] | null {
  if (row === undefined || row === '') return null;
  if (row === 'pdf' || row === 'jpg' || row === 'embedding_image') return [row];
  throw errors.badRequest('row must be pdf, jpg or embedding_image.');
}

export async function listFiles(
  db: Database,
  workspaceId: string,
  q: Paging & { types?: string; sort?: string },
  now: number,
): Promise<{ rows: FileRow[]; total: number; offset: number; limit: number; sort: string[] }> {
  const paging = clampPaging(q);
  const fields = sortFields(q.sort, FILE_SORT_COLUMNS);
  const sort = fields.length > 0 ? fields : ['-createdAt'];
  const { rows, total } = await repos(db).files.listReadableFiles(
    workspaceId,
    {
      types: parseTypes(q.types),
      orderBy: orderBy(sort.join(','), FILE_SORT_COLUMNS, 'created_at DESC, id DESC'),
      ...paging,
    },
    now,
  );
  return { rows, total, ...paging, sort };
}

/** `noun` names the resource in the 404: v1 calls a file a dataset (9). */
export async function getFile(
  db: Database,
  workspaceId: string,
  fileId: string,
  now: number,
  noun = 'File',
): Promise<FileRow> {
  const f = await repos(db).files.findReadableFile(workspaceId, fileId, now);
  if (!f) throw errors.notFound(noun);
  return f;
}

export async function listFileItems(
  db: Database,
  workspaceId: string,
  fileId: string,
  q: Paging & { row?: string; cols?: string; sort?: string },
  now: number,
  noun = 'File',
): Promise<{ rows: FileItemRow[]; total: number; offset: number; limit: number; sort: string[] }> {
  const rows = parseRow(q.row);
  const cols = parseCols(q.cols);
  await getFile(db, workspaceId, fileId, now, noun);
  const paging = clampPaging(q);
  const res = await repos(db).items.listItems(fileId, {
    rows,
    cols,
    orderBy: orderBy(q.sort, ITEM_SORT_COLUMNS, `${ITEM_UPLOAD_ORDER}, id`),
    ...paging,
  });
  // An empty sort means upload order (the default on items, 4.6).
  return { ...res, ...paging, sort: sortFields(q.sort, ITEM_SORT_COLUMNS) };
}

export async function getFileItem(
  db: Database,
  workspaceId: string,
  fileId: string,
  itemId: string,
  now: number,
): Promise<FileItemRow> {
  await getFile(db, workspaceId, fileId, now);
  const item = await repos(db).items.findItem(fileId, itemId);
  if (!item) throw errors.notFound('File item');
  return item;
}

/**
 * Unreadable at once (every read and share link answers 404); bytes, pages and text go in a
 * background purge queued in the same transaction. All or nothing: any id that is not a
 * readable file of this workspace refuses the whole batch.
 */
export async function deleteFiles(
  db: Database,
  workspaceId: string,
  ids: string[],
  clock: Clock,
): Promise<string[]> {
  const unique = [...new Set(ids)];
  return db.transaction(async (tx) => {
    const now = clock();
    const deleted = await repos(tx).files.markFilesDeleted(workspaceId, unique, now);
    if (deleted.length !== unique.length) {
      const missing = unique.filter((id) => !deleted.includes(id));
      throw errors.badRequest(`Not files of this workspace: ${missing.join(', ')}. Nothing was deleted.`);
    }
    for (const id of deleted) await enqueue(tx, PURGE_TASK, id, now, { workspaceId });
    return deleted;
  });
}

export { clampLifetime, SHARE_DEFAULT_SECONDS };
