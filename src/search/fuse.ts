/** A page and how well one ranker thinks it answers the query (higher is better). */
export interface RankedPage {
  fileId: string;
  page: number;
  score: number;
}

/** The usual reciprocal rank fusion constant (Cormack et al. 2009): damps the top ranks' lead. */
const K = 60;

/**
 * Reciprocal rank fusion: each ranking gives a page 1 / (K + rank); scores of different
 * kinds (idf sums, cosines, bit distances) never need to be made comparable. A single
 * ranking passes through unchanged, keeping its own scores.
 */
export function fuse(rankings: readonly RankedPage[][], limit: number): RankedPage[] {
  const used = rankings.filter((r) => r.length > 0);
  if (used.length === 0) return [];
  if (used.length === 1) return used[0].slice(0, limit);
  const byPage = new Map<string, RankedPage>();
  for (const ranking of used) {
    ranking.forEach((hit, i) => {
      const key = `${hit.fileId}\u0000${hit.page}`;
      const prev = byPage.get(key);
      const add = 1 / (K + i + 1);
      byPage.set(key, { fileId: hit.fileId, page: hit.page, score: (prev?.score ?? 0) + add });
    });
  }
  return [...byPage.values()]
    .sort((a, b) => b.score - a.score || a.fileId.localeCompare(b.fileId) || a.page - b.page)
    .slice(0, limit);
}
