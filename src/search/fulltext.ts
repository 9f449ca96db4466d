import type { Database } from '../infra/db/database.ts';
import { repos, transaction } from '../infra/repos/index.ts';
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
/** Besides the words that fit the budget, pages holding two of this many rarest words are read. */
const PAIR_TERMS = 4;

/** BM25's inverse document frequency. */
const idfOf = (df: number, pages: number) => Math.log(1 + (pages - df + 0.5) / (df + 0.5));

/**
 * The tsqueries choosing the candidate pages, best first, each page in at most one of them;
 * the caller reads them in order and stops at the budget. A page holding none of the
 * question's rarer words could only score on common words, so:
 * 1. pages holding all of the three rarest words (the answer page usually holds several);
 * 2. pages holding one of the rarest words, as many words as fit half the budget (a name or
 *    a number found on few pages);
 * 3. pages holding two of the four rarest words: what is left of the budget goes to these,
 *    so a rare word of the question's wording ("airtime") absent from the answer page does
 *    not crowd it out, and a question without any rare word still reads the likeliest pages.
 */
export function candidateQueries(df: readonly number[], lexemes: readonly string[]): string[] {
  const byRarity = df.map((_, i) => i).sort((a, b) => df[a] - df[b] || a - b);
  const rare = byRarity.slice(0, PAIR_TERMS).map((i) => literal(lexemes[i]));
  const few: string[] = [];
  let budget = 0;
  for (const i of byRarity) {
    if (budget + df[i] > CANDIDATE_BUDGET / 2) break;
    few.push(literal(lexemes[i]));
    budget += df[i];
  }
  if (rare.length === 1) return [rare[0]];
  const all = rare.slice(0, 3).join(' & ');
  const tiers = [all];
  if (few.length > 0) tiers.push(`(${few.join(' | ')}) & !(${all})`);
  if (rare.length > 2) {
    const pairs: string[] = [];
    for (let a = 0; a < rare.length; a++)
      for (let b = a + 1; b < rare.length; b++) pairs.push(`${rare[a]} & ${rare[b]}`);
    tiers.push(`(${pairs.join(' | ')}) & !(${all})${few.length > 0 ? ` & !(${few.join(' | ')})` : ''}`);
  }
  return tiers;
}

/**
 * Ranks the pages of the scope for a question. A page's score adds, for each query word it
 * contains, that word's inverse document frequency in the workspace (BM25's idf, from the
 * counts kept at ingest), so rare words (names, numbers, dates) outweigh common ones; pairs
 * of query words standing next to each other on the page (a phrase of the query) add more;
 * brevity and a file-name match break ties. Only candidate pages (see candidateQueries, at most
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
  for (const id of await repos(db).searchLexemes.uncountedFiles(scope.workspaceId))
    await transaction(db, (r) => r.searchLexemes.countFileLexemes(id));
  return (await rankOnce(db, scope, text, limit)).pages;
}

async function rankOnce(
  db: Database,
  scope: TextScope,
  text: string,
  limit: number,
): Promise<{ pages: RankedPage[]; uncounted: boolean }> {
  const stats = await repos(db).searchLexemes.queryLexemeStats(scope.workspaceId, text.slice(0, 4000));
  const terms = stats.terms.slice(0, MAX_TERMS);
  if (terms.length === 0) return { pages: [], uncounted: false };
  const pages = Math.max(stats.pages, 1);
  const df = terms.map((t) => t.df);
  const idf = df.map((d) => idfOf(Math.min(d, pages), pages));
  const tiers = candidateQueries(
    df,
    terms.map((t) => t.lexeme),
  );
  // Neighbouring query words, at their distance in the query (stop words leave gaps).
  const pairs = terms.slice(1).map((t, i) => {
    const gap = Math.max(1, Math.min(5, t.position - terms[i].position));
    return {
      tsquery: `${literal(terms[i].lexeme)} <${gap}> ${literal(t.lexeme)}`,
      weight: (idf[i] + idf[i + 1]) / 2,
    };
  });
  const rows = await repos(db).searchPages.rankPages({
    workspaceId: scope.workspaceId,
    fileIds: scope.fileIds,
    now: scope.now,
    anyTerm: terms.map((t) => literal(t.lexeme)).join(' | '),
    candidateTiers: tiers,
    candidateBudget: CANDIDATE_BUDGET,
    terms: terms.map((t, i) => ({ tsquery: literal(t.lexeme), weight: idf[i] })),
    pairs,
    weights: WEIGHTS,
    limit,
  });
  return {
    pages: rows.map((r) => ({ fileId: r.file_id, page: r.page, score: Number(r.score) })),
    uncounted: rows.some((r) => r.uncounted),
  };
}
