import type { Queryable } from '../infra/db/database.ts';
import type { RankedPage } from './fuse.ts';

/** Query words beyond this many are ignored (a pasted paragraph must not cost seconds). */
const MAX_TERMS = 24;

/** Tuned on the corpus benchmark (`npm run bench:search`). */
export const WEIGHTS = {
  /** Per matched pair of neighbouring query words found next to each other on the page. */
  phrase: 0.6,
  /** ts_rank_cd (cover density, length-normalised) breaks ties between pages matching the same words. */
  density: 2,
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

/**
 * Ranks the pages of `fileIds` for a question. Every page containing any query word is a
 * candidate; its score adds, for each query word it contains, that word's inverse document
 * frequency among the pages searched (BM25's idf), so rare words (names, numbers, dates)
 * outweigh common ones; pairs of query words standing next to each other on the page (a
 * phrase of the query) add more; cover density and file-name matches break ties.
 */
export async function rankFullText(
  q: Queryable,
  fileIds: readonly string[],
  text: string,
  limit: number,
): Promise<RankedPage[]> {
  if (fileIds.length === 0) return [];
  const terms = await queryTerms(q, text);
  if (terms.length === 0) return [];
  const params: unknown[] = [fileIds, terms.map((t) => literal(t.lexeme)).join(' | '), limit];
  const param = (v: unknown) => {
    params.push(v);
    return `$${params.length}::tsquery`;
  };
  const hits = terms.map((t, i) => `(tsv @@ ${param(literal(t.lexeme))})::int AS h${i}`);
  const dfs = terms.map((_, i) => `sum(h${i}) OVER () AS d${i}`);
  const idf = (i: number) => `ln(1 + (n - d${i} + 0.5) / (d${i} + 0.5))`;
  const wordScore = terms.map((_, i) => `h${i} * ${idf(i)}`).join(' + ');
  // Neighbouring query words, at their distance in the query (stop words leave gaps).
  const pairs = terms.slice(1).map((t, i) => {
    const gap = Math.max(1, Math.min(5, t.position - terms[i].position));
    return { sql: param(`${literal(terms[i].lexeme)} <${gap}> ${literal(t.lexeme)}`), a: i, b: i + 1 };
  });
  const pairHits = pairs.map((p, j) => `(tsv @@ ${p.sql})::int AS b${j}`);
  const pairScore = pairs.map((p, j) => `b${j} * (${idf(p.a)} + ${idf(p.b)}) / 2`);
  const sql = `
    WITH cand AS MATERIALIZED (
      SELECT p.file_id, p.page, p.tsv, f.file_name FROM file_pages p JOIN files f ON f.id = p.file_id
       WHERE p.file_id = ANY($1::text[]) AND p.tsv @@ $2::tsquery
    ), hit AS (
      SELECT file_id, page, ${[...hits, ...pairHits].join(', ')},
             ts_rank_cd(tsv, $2::tsquery, 1) AS cd,
             (to_tsvector('english', translate(file_name, '_.-', '   ')) @@ $2::tsquery)::int AS fname
        FROM cand
    ), stat AS (
      SELECT *, ${dfs.join(', ')},
             (SELECT greatest(count(*), 1) FROM file_pages WHERE file_id = ANY($1::text[]))::float8 AS n
        FROM hit
    )
    SELECT file_id, page,
           (${wordScore})
           + ${WEIGHTS.phrase} * (${pairScore.length > 0 ? pairScore.join(' + ') : '0'})
           + ${WEIGHTS.density} * cd
           + ${WEIGHTS.fileName} * fname AS score
      FROM stat ORDER BY score DESC, file_id, page LIMIT $3`;
  const rows = await q.query<{ file_id: string; page: number; score: number }>(sql, params);
  return rows.map((r) => ({ fileId: r.file_id, page: r.page, score: Number(r.score) }));
}
