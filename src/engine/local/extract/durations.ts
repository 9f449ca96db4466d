import { durationCandidates } from '../candidates.ts';
import {
  type Context,
  cite,
  evidence,
  evidenceScore,
  mergeOptions,
  type Option,
  positionPrior,
} from './common.ts';

/** Stated durations ("two (2) years"), quoted as written. */
export function durationOptions(ctx: Context): Option[] {
  const options: Option[] = [];
  for (const c of durationCandidates(ctx.index)) {
    const score = evidenceScore(evidence(ctx, c)) + positionPrior(ctx, c.at.page);
    options.push({ value: c.text, score, citations: cite(ctx, c), text: c.text });
  }
  return mergeOptions(options, (v) => String(v).toLowerCase());
}
