import { citeWords } from '../../citations.ts';
import type { Citation } from '../../types.ts';
import { topPassages } from '../retrieval.ts';
import type { Context, Option } from './common.ts';

/** Saying a value is stated needs less evidence than quoting it (answer-document NULL_BELOW is 0.42). */
const VALUE_FOUND = 0.38;

const NEGATION =
  /\b(no|not|never|none|neither|nor|without|n\/a|shall not|does not|do not|is not|are not|will not|may not|cannot|can't|won't)\b/i;

/**
 * Yes/no from the best evidence: a question about a value ("does it state a term?") is
 * yes when that value is found; otherwise yes when a passage covers the question's words,
 * flipped by a negation in that passage. Returns the option for "yes" or "no".
 */
export function booleanOption(ctx: Context, valueOptions: Option[] | null): Option {
  if (valueOptions) {
    const top = valueOptions[0];
    if (top && top.score >= VALUE_FOUND) return { value: true, score: top.score, citations: top.citations };
    return {
      value: false,
      score: 0.55 - (top?.score ?? 0) * 0.5,
      citations: top && top.score > 0.3 ? top.citations : [],
    };
  }
  const [best] = topPassages(ctx.index, ctx.scores, 1, ['sentence', 'line', 'segment']);
  const promptTerms = new Set(ctx.query.terms);
  if (!best || promptTerms.size === 0) return { value: false, score: 0.3, citations: [] };
  const covered = new Set(best.passage.stems.filter((s) => promptTerms.has(s))).size / promptTerms.size;
  const page = ctx.index.doc.pages[best.passage.page]!;
  const citation: Citation | null = citeWords(ctx.index.doc.fileId, page, best.passage.words);
  if (covered < 0.5) return { value: false, score: 0.35 + (0.5 - covered) * 0.3, citations: [] };
  const negated = NEGATION.test(best.passage.text) !== ctx.query.negated;
  return { value: !negated, score: 0.4 + covered * 0.4, citations: citation ? [citation] : [] };
}
