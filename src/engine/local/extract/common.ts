import { citeWords } from '../../citations.ts';
import type { Citation, ColumnConfig, ScalarValue } from '../../types.ts';
import type { Candidate } from '../candidates.ts';
import type { DocIndex } from '../doc-index.ts';
import type { Query } from '../query.ts';
import { type Evidence, evidenceFor, maxScore, scorePassages } from '../retrieval.ts';

/** Everything an extractor needs about one document and one question. */
export interface Context {
  index: DocIndex;
  query: Query;
  config: ColumnConfig | null;
  scores: Float64Array;
  best: number;
}

export function contextFor(index: DocIndex, query: Query, config: ColumnConfig | null): Context {
  const scores = scorePassages(index, query);
  return { index, query, config, scores, best: maxScore(scores) };
}

/** One possible answer of one document, with the evidence score that ranks it. */
export interface Option {
  value: ScalarValue;
  score: number;
  citations: Citation[];
  /** The value as written, for text answers. */
  text?: string;
}

/** The combined evidence score of a candidate, 0 to about 1. */
export function evidenceScore(e: Evidence): number {
  return 0.45 * e.relevance + 0.4 * e.label + 0.15 * e.proximity;
}

export function evidence<T>(ctx: Context, c: Candidate<T>): Evidence {
  return evidenceFor(ctx.index, ctx.query, ctx.scores, ctx.best, c.at);
}

export function cite<T>(ctx: Context, c: Candidate<T>): Citation[] {
  const page = ctx.index.doc.pages[c.at.page]!;
  const words = c.at.unit.words.slice(c.at.from, c.at.to + 1);
  const citation = citeWords(ctx.index.doc.fileId, page, words);
  return citation ? [citation] : [];
}

/**
 * Keeps the best option per distinct value; a value written in several places gains a
 * little (agreement of candidates), capped so repetition cannot beat a clear label.
 */
export function mergeOptions(
  options: Option[],
  key: (v: ScalarValue) => string = (v) => JSON.stringify(v),
): Option[] {
  const byValue = new Map<string, { best: Option; count: number }>();
  for (const o of options) {
    const k = key(o.value);
    const cur = byValue.get(k);
    if (!cur) byValue.set(k, { best: o, count: 1 });
    else {
      cur.count++;
      if (o.score > cur.best.score) cur.best = o;
    }
  }
  return [...byValue.values()]
    .map(({ best, count }) => ({ ...best, score: best.score + Math.min(0.08, 0.025 * (count - 1)) }))
    .sort((a, b) => b.score - a.score);
}

/** Early pages hold the facts of a document more often than late ones (signatures, annexes). */
export function positionPrior(ctx: Context, page: number): number {
  const n = ctx.index.doc.pages.length;
  return n > 1 ? 0.04 * (1 - page / (n - 1)) : 0.04;
}
