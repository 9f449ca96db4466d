import type { Queryable } from '../infra/db/database.ts';
import { lexemeStats } from '../infra/repos/search-lexemes.ts';
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

interface Term {
  lexeme: string;
  position: number;
}

/**
 * The lexemes of the query as PostgreSQL's English configuration makes them (stemmed, stop
 * words dropped), in query order. A question's words are alternatives, never all required.
 */
export async function queryTerms(q: Queryable, text: string): Promise<Term[]> {
  const rows = await q.query<{ lexeme: string; position: number }>(
    `SELECT lexeme, positions[1]::int AS position FROM unnest(to_tsvector('english', $1))
      ORDER BY positions[1]`,
    [text.slice(0, 4000)],
  );
  return rows.slice(0, MAX_TERMS);
}

/** A lexeme as a tsquery literal: quoted, so the cast keeps it verbatim (no second stemming). */
const literal = (lexeme: string) => `'${lexeme.replace(/\\/g, '\\\\').replace(/'/g, "''")}'`;

/** Candidate pages read per search, at most about this many: the work stays flat as a workspace grows. */
const CANDIDATE_BUDGET = 500;

/** BM25's inverse document frequency. */
const idfOf = (df: number, pages: number) => Math.log(1 + (pages - df + 0.5) / (df + 0.5));

/**
 * Ranks the pages of `fileIds` for a question. A page's score adds, for each query word it
 * contains, that word's inverse document frequency in the workspace (BM25's idf, from the
 * counts kept at ingest), so rare words (names, numbers, dates) outweigh common ones; pairs
 * of query words standing next to each other on the page (a phrase of the query) add more;
 * cover density and a file-name match break ties. Only pages holding one of the rarest
 * query words (up to CANDIDATE_BUDGET pages in all) are read and scored: a page with none
 * of them could only score on common words, and reading every page would cost ~10 ms per
 * thousand pages.
 */
export async function rankFullText(
  q: Queryable,
  scope: { workspaceId: string; fileIds: readonly string[] },
  text: string,
  limit: number,
): Promise<RankedPage[]> {
  if (scope.fileIds.length === 0) return [];
  const terms = await queryTerms(q, text);
  if (terms.length === 0) return [];
  const stats = await lexemeStats(
    q,
    scope.workspaceId,
    terms.map((t) => t.lexeme),
  );
  const pages = Math.max(stats.pages, 1);
  const df = terms.map((t) => stats.df.get(t.lexeme) ?? 0);
  const idf = df.map((d) => idfOf(Math.min(d, pages), pages));
  const byRarity = terms.map((_, i) => i).sort((a, b) => df[a] - df[b]);
  const selected: number[] = [];
  let budget = 0;
  for (const i of byRarity) {
    if (selected.length > 0 && budget + df[i] > CANDIDATE_BUDGET) break;
    selected.push(i);
    budget += df[i];
  }
  const params: unknown[] = [
    scope.fileIds,
    selected.map((i) => literal(terms[i].lexeme)).join(' | '),
    terms.map((t) => literal(t.lexeme)).join(' | '),
    limit,
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
      SELECT p.file_id, p.page, p.tsv || ''::tsvector AS tsv
        FROM file_pages p WHERE p.file_id = ANY($1::text[]) AND p.tsv @@ $2::tsquery
    ), named AS (
      -- Once per file, not per page.
      SELECT f.id, (to_tsvector('english', translate(f.file_name, '_.-', '   ')) @@ $3::tsquery)::int AS hit
        FROM files f WHERE f.id IN (SELECT DISTINCT file_id FROM cand)
    )
    SELECT file_id, page,
           (${words.join(' + ')})
           + ${WEIGHTS.phrase} * (${pairs.length > 0 ? pairs.join(' + ') : '0'})
           + ${WEIGHTS.brevity} / ln(2 + length(tsv))
           + ${WEIGHTS.fileName} * named.hit AS score
      FROM cand JOIN named ON named.id = cand.file_id ORDER BY score DESC, file_id, page LIMIT $4`;
  const rows = await q.query<{ file_id: string; page: number; score: number }>(sql, params);
  return rows.map((r) => ({ fileId: r.file_id, page: r.page, score: Number(r.score) }));
}
