import type { Queryable } from '../db/database.ts';

/** Hashes travel as strings of 0 and 1, the text form of bit(256). */
export async function insertPageHashes(
  q: Queryable,
  rows: readonly { fileId: string; page: number; bits: string }[],
  now: number,
): Promise<void> {
  if (rows.length === 0) return;
  await q.query(
    `INSERT INTO page_hashes (file_id, page, dhash, created_at)
     SELECT f, p, h::bit(256), $4 FROM unnest($1::text[], $2::int[], $3::text[]) AS t(f, p, h)
     ON CONFLICT (file_id, page) DO NOTHING`,
    [rows.map((r) => r.fileId), rows.map((r) => r.page), rows.map((r) => r.bits), now],
  );
}

/** Pages (with their retrieval image) of the given files that have no hash yet. */
export async function pagesWithoutHash(
  q: Queryable,
  fileIds: readonly string[],
): Promise<{ file_id: string; page: number; blob_key: string }[]> {
  return q.query(
    `SELECT i.file_id, i.col AS page, i.blob_key FROM file_items i
      WHERE i.file_id = ANY($1::text[]) AND i.row = 'embedding_image'
        AND NOT EXISTS (SELECT 1 FROM page_hashes h WHERE h.file_id = i.file_id AND h.page = i.col)
      ORDER BY i.file_id, i.col`,
    [fileIds],
  );
}

/** Pages of the given files whose hash is within `maxDistance` bits of `bits`, nearest first. */
export async function nearestHashes(
  q: Queryable,
  fileIds: readonly string[],
  bits: string,
  maxDistance: number,
  limit: number,
): Promise<{ file_id: string; page: number; distance: number }[]> {
  return q.query(
    `SELECT file_id, page, distance FROM (
       SELECT file_id, page, bit_count(dhash # $2::bit(256))::int AS distance
         FROM page_hashes WHERE file_id = ANY($1::text[])) d
      WHERE distance <= $3 ORDER BY distance, file_id, page LIMIT $4`,
    [fileIds, bits, maxDistance, limit],
  );
}
