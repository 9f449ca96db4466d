import type { Queryable } from '../infra/db/database.ts';
import { fromBytes, repos, type VectorKind } from '../infra/repos/index.ts';
import type { RankedPage } from './fuse.ts';

/**
 * Exact nearest pages by cosine similarity (vectors are unit length: a dot product). The
 * vectors of the searched files are read as raw float32 bytes and scored here; exact
 * search over tens of thousands of pages costs milliseconds, and needs no pgvector.
 */
export async function rankByVector(
  q: Queryable,
  fileIds: readonly string[],
  kind: VectorKind,
  model: string,
  query: Float32Array,
  limit: number,
): Promise<RankedPage[]> {
  if (fileIds.length === 0) return [];
  const rows = await repos(q).pageVectors.scopeVectors(fileIds, kind, model, query.length);
  const scored = rows.map((r) => {
    const v = fromBytes(r.embedding);
    let dot = 0;
    for (let i = 0; i < v.length; i++) dot += v[i] * query[i];
    return { fileId: r.file_id, page: r.page, score: dot };
  });
  return scored.sort((a, b) => b.score - a.score).slice(0, limit);
}
