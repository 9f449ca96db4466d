import type { Queryable } from '../db/database.ts';
import { selectPage } from '../db/sql.ts';

export type ItemRow = 'pdf' | 'jpg' | 'embedding_image';

export interface FileItemRow {
  id: string;
  file_id: string;
  row: ItemRow;
  col: number;
  blob_key: string;
  mime_type: string;
  byte_size: number;
  created_at: number;
}

export interface PageRow {
  file_id: string;
  page: number;
  width: number;
  height: number;
  text: string;
  words: unknown;
  /** `[{ box: [xmin, ymin, xmax, ymax] }]`, fractions of the displayed page. */
  images: unknown;
  ocr: boolean;
  created_at: number;
}

/** One statement for all the rows (a batch of pages' items). */
export async function insertItems(q: Queryable, items: readonly FileItemRow[]): Promise<void> {
  if (items.length === 0) return;
  const col = <K extends keyof FileItemRow>(k: K) => items.map((i) => i[k]);
  await q.query(
    `INSERT INTO file_items (id, file_id, row, col, blob_key, mime_type, byte_size, created_at)
     SELECT * FROM unnest($1::text[], $2::text[], $3::text[], $4::int[], $5::text[], $6::text[], $7::bigint[], $8::bigint[])`,
    [
      col('id'),
      col('file_id'),
      col('row'),
      col('col'),
      col('blob_key'),
      col('mime_type'),
      col('byte_size'),
      col('created_at'),
    ],
  );
}

/**
 * Many pages of one file in one statement (`words` and `images` already JSON text); a page
 * that already exists is left alone. Returns the pages inserted.
 */
export async function insertPages(
  q: Queryable,
  fileId: string,
  pages: readonly (Omit<PageRow, 'file_id' | 'words' | 'images'> & { words: string; images: string })[],
): Promise<Set<number>> {
  if (pages.length === 0) return new Set();
  const col = <K extends keyof (typeof pages)[number]>(k: K) => pages.map((p) => p[k]);
  const rows = await q.query<{ page: number }>(
    `INSERT INTO file_pages (file_id, page, width, height, text, words, images, ocr, tsv, created_at)
     SELECT $1, p.page, p.width, p.height, p.text, p.words::json, p.images::jsonb, p.ocr,
            to_tsvector('english', p.text), p.created_at
       FROM unnest($2::int[], $3::real[], $4::real[], $5::text[], $6::text[], $7::text[], $8::boolean[], $9::bigint[])
            AS p(page, width, height, text, words, images, ocr, created_at)
     ON CONFLICT (file_id, page) DO NOTHING RETURNING page`,
    [
      fileId,
      col('page'),
      col('width'),
      col('height'),
      col('text'),
      col('words'),
      col('images'),
      col('ocr'),
      col('created_at'),
    ],
  );
  return new Set(rows.map((r) => r.page));
}

/** Which of these pages of a file are stored. */
export async function storedPagesOf(
  q: Queryable,
  fileId: string,
  pages: readonly number[],
): Promise<Set<number>> {
  const rows = await q.query<{ page: number }>(
    'SELECT page FROM file_pages WHERE file_id = $1 AND page = ANY($2::int[])',
    [fileId, pages],
  );
  return new Set(rows.map((r) => r.page));
}

export async function donePages(q: Queryable, fileId: string): Promise<Set<number>> {
  const rows = await q.query<{ page: number }>('SELECT page FROM file_pages WHERE file_id = $1', [fileId]);
  return new Set(rows.map((r) => r.page));
}

export async function getPage(q: Queryable, fileId: string, page: number): Promise<PageRow | null> {
  const rows = await q.query<PageRow>('SELECT * FROM file_pages WHERE file_id = $1 AND page = $2', [
    fileId,
    page,
  ]);
  return rows[0] ?? null;
}

export const ITEM_SORT_COLUMNS: Readonly<Record<string, string>> = {
  col: 'col',
  row: 'row',
  createdAt: 'created_at',
  id: 'id',
};

/** Upload order: pages in the order they were produced, each page's pdf, jpg, retrieval image. */
export const ITEM_UPLOAD_ORDER = "created_at, col, array_position(ARRAY['pdf','jpg','embedding_image'], row)";

export async function listItems(
  q: Queryable,
  fileId: string,
  opts: { rows: ItemRow[] | null; cols: number[] | null; orderBy: string; offset: number; limit: number },
): Promise<{ rows: FileItemRow[]; total: number }> {
  const params: unknown[] = [fileId];
  let where = 'file_id = $1';
  if (opts.rows) {
    params.push(opts.rows);
    where += ` AND row = ANY($${params.length}::text[])`;
  }
  if (opts.cols) {
    params.push(opts.cols);
    where += ` AND col = ANY($${params.length}::int[])`;
  }
  return selectPage<FileItemRow>(q, 'file_items', where, params, opts);
}

export async function findItem(q: Queryable, fileId: string, id: string): Promise<FileItemRow | null> {
  const rows = await q.query<FileItemRow>('SELECT * FROM file_items WHERE file_id = $1 AND id = $2', [
    fileId,
    id,
  ]);
  return rows[0] ?? null;
}

export async function findItemById(q: Queryable, id: string): Promise<FileItemRow | null> {
  const rows = await q.query<FileItemRow>('SELECT * FROM file_items WHERE id = $1', [id]);
  return rows[0] ?? null;
}

/** `count` stored pages move their job's progress and their file's page count. */
export async function countPagesDone(
  q: Queryable,
  jobId: string,
  fileId: string,
  count: number,
  now: number,
): Promise<void> {
  await q.query('UPDATE jobs SET pages_done = pages_done + $3, updated_at = $2 WHERE id = $1', [
    jobId,
    now,
    count,
  ]);
  await q.query('UPDATE files SET item_count = item_count + $3, updated_at = $2 WHERE id = $1', [
    fileId,
    now,
    count,
  ]);
}

/** Where a page's rendered image is stored; null when there is none. */
export async function findPageImageKey(q: Queryable, fileId: string, page: number): Promise<string | null> {
  const rows = await q.query<{ blob_key: string }>(
    `SELECT blob_key FROM file_items WHERE file_id = $1 AND row = 'jpg' AND col = $2`,
    [fileId, page],
  );
  return rows[0]?.blob_key ?? null;
}

/** The `row` item (jpg, pdf, embedding_image) of each of these pages that has one. */
export async function pageItemsOf(
  q: Queryable,
  pages: readonly { fileId: string; page: number }[],
  row: string,
): Promise<FileItemRow[]> {
  return q.query<FileItemRow>(
    `SELECT i.* FROM file_items i
       JOIN unnest($1::text[], $2::int[]) AS h(file_id, page) ON i.file_id = h.file_id AND i.col = h.page
      WHERE i.row = $3`,
    [pages.map((h) => h.fileId), pages.map((h) => h.page), row],
  );
}

/** The text of these pages of a file, in page order, leaving out pages with no text. */
export async function pageTexts(
  q: Queryable,
  fileId: string,
  pages: readonly number[],
): Promise<{ page: number; text: string }[]> {
  return q.query<{ page: number; text: string }>(
    `SELECT page, text FROM file_pages WHERE file_id = $1 AND page = ANY($2::int[]) AND length(btrim(text)) > 0
      ORDER BY page`,
    [fileId, pages],
  );
}

/** The retrieval-image blob of these pages of a file, in page order. */
export async function embeddingImages(
  q: Queryable,
  fileId: string,
  pages: readonly number[],
): Promise<{ page: number; blob_key: string }[]> {
  return q.query<{ page: number; blob_key: string }>(
    `SELECT col AS page, blob_key FROM file_items WHERE file_id = $1 AND row = 'embedding_image'
        AND col = ANY($2::int[]) ORDER BY col`,
    [fileId, pages],
  );
}
