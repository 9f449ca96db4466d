import { dateCandidates } from '../candidates.ts';
import {
  type Context,
  cite,
  evidence,
  evidenceScore,
  mergeOptions,
  type Option,
  positionPrior,
} from './common.ts';

/** ISO dates; for a written range the prompt's "first/start" or "last/end" picks the end. */
export function dateOptions(ctx: Context): Option[] {
  const want = ctx.query.rangeEnd;
  const options: Option[] = [];
  const candidates = dateCandidates(ctx.index);
  // Relevance relative to the best passage that holds a date: the clause that names the
  // field often refers to a date written elsewhere ("effective as of the date first written above").
  let bestWithDate = 0;
  for (const c of candidates) bestWithDate = Math.max(bestWithDate, ctx.scores[c.at.unit.id]!);
  const local = { ...ctx, best: Math.max(bestWithDate, ctx.best * 0.35) };
  for (const c of candidates) {
    let score = evidenceScore(evidence(local, c)) + positionPrior(ctx, c.at.page) - 0.04;
    if (want && c.value.role !== 'single') score += c.value.role === want ? 0.25 : -0.25;
    options.push({ value: c.value.iso, score, citations: cite(ctx, c), text: c.text });
  }
  const merged = mergeOptions(options);
  // Without a range in the text, "first"/"last" still orders dates of equal evidence.
  if (want && merged.length > 1) {
    const top = merged[0]!.score;
    const close = merged.filter((o) => o.score >= top - 0.08);
    if (close.length > 1) {
      close.sort((a, b) =>
        want === 'start'
          ? String(a.value).localeCompare(String(b.value))
          : String(b.value).localeCompare(String(a.value)),
      );
      close[0]!.score = top + 0.001;
      merged.sort((a, b) => b.score - a.score);
    }
  }
  return merged;
}
