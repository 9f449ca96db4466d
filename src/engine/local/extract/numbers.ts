import { durationCandidates, durationIn, numberCandidates } from '../candidates.ts';
import {
  type Context,
  cite,
  evidence,
  evidenceScore,
  mergeOptions,
  type Option,
  positionPrior,
} from './common.ts';

const TOTAL = /\b(total|sum|grand|balance|amount due|net)\b/i;

/**
 * Numbers as numbers, whatever the locale: thousands separators, decimals, currency,
 * percent, negatives in parentheses, scale words. A prompt asking "how many months"
 * reads durations and converts them.
 */
export function numberOptions(ctx: Context): Option[] {
  const q = ctx.query;
  const options: Option[] = [];
  if (q.unit && q.unit !== 'percent') {
    for (const c of durationCandidates(ctx.index)) {
      const score = evidenceScore(evidence(ctx, c)) + positionPrior(ctx, c.at.page);
      options.push({ value: durationIn(c.value, q.unit), score, citations: cite(ctx, c), text: c.text });
    }
    return mergeOptions(options);
  }
  const wantsMoney = q.kind === 'money';
  const wantsTotal = TOTAL.test(q.prompt);
  const all = numberCandidates(ctx.index);
  let largest = 0;
  for (const c of all)
    if (c.value.currency || c.value.decimals) largest = Math.max(largest, Math.abs(c.value.value));
  for (const c of all) {
    const v = c.value;
    let score = evidenceScore(evidence(ctx, c)) + positionPrior(ctx, c.at.page) * 0.5;
    if (v.suspicious) score -= 0.3;
    if (wantsMoney) score += v.currency ? 0.1 : v.decimals ? 0.04 : -0.1;
    if (q.unit === 'percent') score += v.percent ? 0.15 : -0.15;
    // A total is the largest amount on its document more often than not.
    if (wantsTotal && largest > 0 && Math.abs(v.value) === largest) score += 0.12;
    options.push({ value: v.value, score, citations: cite(ctx, c), text: c.text });
  }
  return mergeOptions(options);
}
