import type { Queryable } from '../db/database.ts';

export type VectorKind = 'text' | 'image';

/** float32 little-endian bytes: compact on disk and read back without parsing text. */
export const toBytes = (v: Float32Array): Buffer => Buffer.from(v.buffer, v.byteOffset, v.byteLength);
export const fromBytes = (b: Uint8Array): Float32Array => {
  // Copy: the driver's buffer may be unaligned or shared with other rows.
  const copy = new Uint8Array(b);
  return new Float32Array(copy.buffer, 0, copy.byteLength / 4);
};

export interface PageVector {
  file_id: string;
  page: number;
  kind: VectorKind;
  model: string;
  vector: Float32Array;
}

/** Idempotent: a page that already has a vector of this kind and model keeps it. */
export async function insertPageVectors(
  q: Queryable,
  rows: readonly PageVector[],
  now: number,
): Promise<void> {
  if (rows.length === 0) return;
  const col = <K extends keyof PageVector>(k: K) => rows.map((r) => r[k]);
  await q.query(
    `INSERT INTO page_vectors (file_id, page, kind, model, dims, embedding, created_at)
     SELECT f, p, k, m, d, e, $7 FROM unnest($1::text[], $2::int[], $3::text[], $4::text[], $5::int[], $6::bytea[])
       AS t(f, p, k, m, d, e)
     ON CONFLICT (file_id, page, kind, model) DO NOTHING`,
    [
      col('file_id'),
      col('page'),
      col('kind'),
      col('model'),
      rows.map((r) => r.vector.length),
      rows.map((r) => toBytes(r.vector)),
      now,
    ],
  );
}

/** Pages of a file that have no vector of this kind from this model yet. */
export async function pagesWithoutVector(
  q: Queryable,
  fileId: string,
  kind: VectorKind,
  model: string,
): Promise<number[]> {
  const rows = await q.query<{ page: number }>(
    `SELECT p.page FROM file_pages p
      WHERE p.file_id = $1
        AND NOT EXISTS (SELECT 1 FROM page_vectors v
                         WHERE v.file_id = p.file_id AND v.page = p.page AND v.kind = $2 AND v.model = $3)
      ORDER BY p.page`,
    [fileId, kind, model],
  );
  return rows.map((r) => r.page);
}

export async function countFileVectors(q: Queryable, fileId: string): Promise<number> {
  const rows = await q.query<{ n: number }>(
    'SELECT count(*)::int AS n FROM page_vectors WHERE file_id = $1',
    [fileId],
  );
  return rows[0].n;
}

/** Every vector of this kind, model and size among the given readable files. */
export async function scopeVectors(
  q: Queryable,
  fileIds: readonly string[],
  kind: VectorKind,
  model: string,
  dims: number,
): Promise<{ file_id: string; page: number; embedding: Uint8Array }[]> {
  return q.query(
    `SELECT file_id, page, embedding FROM page_vectors
      WHERE file_id = ANY($1::text[]) AND kind = $2 AND model = $3 AND dims = $4`,
    [fileIds, kind, model, dims],
  );
}
