import type { Queryable } from '../db/database.ts';

export interface PageRanking {
  workspaceId: string;
  /** null: every readable file of the workspace. */
  fileIds: readonly string[] | null;
  /** Files expired by then are not read (D8). */
  now: number;
  /** Any of the query's words, as a tsquery: matched against file names. */
  anyTerm: string;
  /** tsqueries whose matches, in order, make the candidate pages, up to candidateBudget. */
  candidateTiers: readonly string[];
  candidateBudget: number;
  /** Each query word's tsquery and the score a page containing it gains. */
  terms: readonly { tsquery: string; weight: number }[];
  /** Neighbouring query words as a phrase tsquery, and the score the phrase adds. */
  pairs: readonly { tsquery: string; weight: number }[];
  weights: { phrase: number; brevity: number; fileName: number };
  limit: number;
}

export interface RankedPageRow {
  file_id: string;
  page: number;
  score: number;
  uncounted: boolean;
}

/**
 * One round trip: the readable files, the candidate pages their index finds, and each
 * candidate's score. The scores are computed by the caller (search/fulltext.ts); here they
 * are only written as float8 constants.
 */
export async function rankPages(q: Queryable, r: PageRanking): Promise<RankedPageRow[]> {
  const params: unknown[] = [r.fileIds, r.anyTerm, r.limit, r.workspaceId, r.now, r.candidateBudget];
  const param = (v: unknown) => {
    params.push(v);
    return `$${params.length}::tsquery`;
  };
  const tiers = r.candidateTiers.map(
    (tsq) => `
      SELECT p.file_id, p.page, p.tsv FROM file_pages p
       WHERE p.tsv @@ ${param(tsq)}
         AND p.file_id = ANY((SELECT ids FROM scope)::text[])`,
  );
  // float8 constants: integer-times-decimal arithmetic would run in (slow) numeric.
  const num = (v: number) => `${v.toFixed(6)}::float8`;
  const words = r.terms.map((t) => `CASE WHEN tsv @@ ${param(t.tsquery)} THEN ${num(t.weight)} ELSE 0 END`);
  const pairs = r.pairs.map((p) => `CASE WHEN tsv @@ ${param(p.tsquery)} THEN ${num(p.weight)} ELSE 0 END`);
  const sql = `
    WITH scope AS MATERIALIZED (
      -- The readable files (D8), as one array, so pages are filtered as the index finds them.
      SELECT ARRAY(
        SELECT f.id FROM files f
         WHERE f.workspace_id = $4 AND f.deleted_at IS NULL AND (f.expires_at IS NULL OR f.expires_at > $5)
           AND ($1::text[] IS NULL OR f.id = ANY($1::text[]))) AS ids
    ), cand AS MATERIALIZED (
      -- Concatenation makes an in-memory copy: each page is read (detoasted) once, not once per term.
      SELECT c.file_id, c.page, c.tsv || ''::tsvector AS tsv,
             -- Per page, by the file's key: a join to the files met would be planned blind (no statistics).
             (SELECT (to_tsvector('english', translate(f.file_name, '_.-', '   ')) @@ $2::tsquery)::int
                FROM files f WHERE f.id = c.file_id) AS hit,
             NOT EXISTS (SELECT 1 FROM search_indexed_files s WHERE s.file_id = c.file_id) AS uncounted
        FROM (${tiers.join('\n      UNION ALL')}
             LIMIT $6) c
    )
    SELECT file_id, page,
           (${words.length > 0 ? words.join(' + ') : '0'})
           + ${num(r.weights.phrase)} * (${pairs.length > 0 ? pairs.join(' + ') : '0'})
           + ${num(r.weights.brevity)} / ln(2 + length(tsv))
           + ${num(r.weights.fileName)} * hit AS score,
           bool_or(uncounted) OVER () AS uncounted
      FROM cand ORDER BY score DESC, file_id, page LIMIT $3`;
  return q.query<RankedPageRow>(sql, params);
}
