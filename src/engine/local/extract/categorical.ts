import { escapeRegex } from '../../text/tokenize.ts';
import { scan } from '../candidates.ts';
import {
  type Context,
  cite,
  evidence,
  evidenceScore,
  mergeOptions,
  type Option,
  positionPrior,
} from './common.ts';

/** Exactly one of the column's categories, returned verbatim as configured. */
export function categoricalOptions(ctx: Context, categories: string[]): Option[] {
  const usable = categories.filter((c) => c.trim().length > 0);
  if (usable.length === 0) return [];
  // Longest first, so "West Virginia" is not read as "Virginia".
  const sorted = [...usable].sort((a, b) => b.length - a.length);
  const re = new RegExp(
    `(?<![\\p{L}\\p{N}])(?:${sorted.map((c) => escapeRegex(c.trim()).replace(/\s+/g, '\\s+')).join('|')})(?![\\p{L}\\p{N}])`,
    'giu',
  );
  const byLower = new Map(usable.map((c) => [c.trim().toLowerCase().replace(/\s+/g, ' '), c]));
  const options: Option[] = [];
  for (const c of scan(ctx.index, re, (m) => byLower.get(m[0].toLowerCase().replace(/\s+/g, ' ')) ?? null)) {
    const score = evidenceScore(evidence(ctx, c)) + positionPrior(ctx, c.at.page) * 0.5;
    options.push({ value: c.value, score, citations: cite(ctx, c), text: c.text });
  }
  return mergeOptions(options);
}
