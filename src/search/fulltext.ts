import type { Database } from '../infra/db/database.ts';
import { countFileLexemes, queryLexemeStats, uncountedFiles } from '../infra/repos/search-lexemes.ts';
import type { RankedPage } from './fuse.ts';

/** Query words beyond this many are ignored (a pasted paragraph must not cost seconds). */
const MAX_TERMS = 24;

/** Tuned on the corpus benchmark (`npm run bench:search`). */
export const WEIGHTS = {
  /** Per matched pair of neighbouring query words found next to each other on the page. */
  phrase: 0.6,
  /**
   * Between pages matching the same words, the shorter (more about them) wins. Cheaper than
   * ts_rank_cd, which scored no better on the benchmark and cost a third of the search time.
   */
  brevity: 2,
  /** When the file name contains a query word. */
  fileName: 0.5,
};

/** The files a ranking reads: `fileIds` when given, else every readable file of the workspace. */
export interface TextScope {
  workspaceId: string;
  fileIds: readonly string[] | null;
  /** Files expired by then are not read (D8). */
  now: number;
}

/** A lexeme as a tsquery literal: quoted, so the cast keeps it verbatim (no second stemming). */
const literal = (lexeme: string) => `'${lexeme.replace(/\\/g, '\\\\').replace(/'/g, "''")}'`;

/**
 * Candidate pages read and scored per search, at most: reading (detoasting) and scoring a
 * page costs ~50 us embedded, so the work stays flat as a workspace grows.
 */
export const CANDIDATE_BUDGET = 200;
/** When even the rarest word is on more pages than the budget: pages holding two of this many rarest words. */
const PAIR_TERMS = 3;

/** BM25's inverse document frequency. */
const idfOf = (df: number, pages: number) => Math.log(1 + (pages - df + 0.5) / (df + 0.5));

/**
 * The tsquery choosing the candidate pages. Pages holding one of the rarest query words, as
 * many words as fit the budget: a page with none of them could only score on common words.
 * When the rarest word alone is over the budget (no word of the question is rare, or the
 * workspace is large), pages holding two of the rarest few words together (the answer page
 * usually holds several of them); the page count is capped by the caller either way.
 */
export function candidateQuery(df: readonly number[], lexemes: readonly string[]): string {
  const byRarity = df.map((_, i) => i).sort((a, b) => df[a] - df[b] || a - b);
  if (df[byRarity[0]] > CANDIDATE_BUDGET && byRarity.length > 1) {
    const rare = byRarity.slice(0, PAIR_TERMS);
    const pairs: string[] = [];
    for (let a = 0; a < rare.length; a++)
      for (let b = a + 1; b < rare.length; b++)
        pairs.push(`(${literal(lexemes[rare[a]])} & ${literal(lexemes[rare[b]])})`);
    return pairs.join(' | ');
  }
  const selected: number[] = [];
  let budget = 0;
  for (const i of byRarity) {
    if (selected.length > 0 && budget + df[i] > CANDIDATE_BUDGET) break;
    selected.push(i);
    budget += df[i];
  }
  return selected.map((i) => literal(lexemes[i])).join(' | ');
}

/**
 * Ranks the pages of the scope for a question. A page's score adds, for each query word it
 * contains, that word's inverse document frequency in the workspace (BM25's idf, from the
 * counts kept at ingest), so rare words (names, numbers, dates) outweigh common ones; pairs
 * of query words standing next to each other on the page (a phrase of the query) add more;
 * brevity and a file-name match break ties. Only candidate pages (see candidateQuery, at most
 * CANDIDATE_BUDGET) are read and scored: reading every page would cost ~10 ms per thousand.
 * Two round trips: the query's words with their counts, then the ranking.
 */
export async function rankFullText(
  db: Database,
  scope: TextScope,
  text: string,
  limit: number,
): Promise<RankedPage[]> {
  if (scope.fileIds?.length === 0) return [];
  const ranked = await rankOnce(db, scope, text, limit);
  if (!ranked.uncounted) return ranked.pages;
  // A page read belongs to a file whose words were never counted (read before counting
  // existed, or its count failed): the workspace's files are counted, once, and the
  // question asked again with the right weights.
  for (const id of await uncountedFiles(db, scope.workspaceId)) await countFileLexemes(db, id);
  return (await rankOnce(db, scope, text, limit)).pages;
}

async function rankOnce(
  db: Database,
  scope: TextScope,
  text: string,
  limit: number,
): Promise<{ pages: RankedPage[]; uncounted: boolean }> {
  const stats = await queryLexemeStats(db, scope.workspaceId, text.slice(0, 4000));
  const terms = stats.terms.slice(0, MAX_TERMS);
  if (terms.length === 0) return { pages: [], uncounted: false };
  const pages = Math.max(stats.pages, 1);
  const df = terms.map((t) => t.df);
  const idf = df.map((d) => idfOf(Math.min(d, pages), pages));
  const params: unknown[] = [
    scope.fileIds,
    candidateQuery(
      df,
      terms.map((t) => t.lexeme),
    ),
    terms.map((t) => literal(t.lexeme)).join(' | '),
    limit,
    scope.workspaceId,
    scope.now,
    CANDIDATE_BUDGET,
  ];
  const param = (v: unknown) => {
    params.push(v);
    return `$${params.length}::tsquery`;
  };
  // float8 constants: integer-times-decimal arithmetic would run in (slow) numeric.
  const num = (v: number) => `${v.toFixed(6)}::float8`;
  const words = terms.map(
    (t, i) => `CASE WHEN tsv @@ ${param(literal(t.lexeme))} THEN ${num(idf[i])} ELSE 0 END`,
  );
  // Neighbouring query words, at their distance in the query (stop words leave gaps).
  const pairs = terms.slice(1).map((t, i) => {
    const gap = Math.max(1, Math.min(5, t.position - terms[i].position));
    const phrase = param(`${literal(terms[i].lexeme)} <${gap}> ${literal(t.lexeme)}`);
    return `CASE WHEN tsv @@ ${phrase} THEN ${num((idf[i] + idf[i + 1]) / 2)} ELSE 0 END`;
  });
  const sql = `
    WITH cand AS MATERIALIZED (
      -- Concatenation makes an in-memory copy: each page is read (detoasted) once, not once per term.
      SELECT p.file_id, p.page, p.tsv || ''::tsvector AS tsv,
             -- Per page, by the file's key: a join to the files met would be planned blind (no statistics).
             (SELECT (to_tsvector('english', translate(f.file_name, '_.-', '   ')) @@ $3::tsquery)::int
                FROM files f WHERE f.id = p.file_id) AS hit,
             NOT EXISTS (SELECT 1 FROM search_indexed_files s WHERE s.file_id = p.file_id) AS uncounted
        FROM file_pages p
       WHERE p.tsv @@ $2::tsquery
         -- The readable files (D8); an array, so the pages are filtered as the index finds them.
         AND p.file_id = ANY(ARRAY(
           SELECT f.id FROM files f
            WHERE f.workspace_id = $5 AND f.deleted_at IS NULL AND (f.expires_at IS NULL OR f.expires_at > $6)
              AND ($1::text[] IS NULL OR f.id = ANY($1::text[]))))
       LIMIT $7
    )
    SELECT file_id, page,
           (${words.join(' + ')})
           + ${WEIGHTS.phrase} * (${pairs.length > 0 ? pairs.join(' + ') : '0'})
           + ${WEIGHTS.brevity} / ln(2 + length(tsv))
           + ${WEIGHTS.fileName} * hit AS score,
           bool_or(uncounted) OVER () AS uncounted
      FROM cand ORDER BY score DESC, file_id, page LIMIT $4`;
  const rows = await db.query<{ file_id: string; page: number; score: number; uncounted: boolean }>(
    sql,
    params,
  );
  return {
    pages: rows.map((r) => ({ fileId: r.file_id, page: r.page, score: Number(r.score) })),
    uncounted: rows.some((r) => r.uncounted),
  };
}
