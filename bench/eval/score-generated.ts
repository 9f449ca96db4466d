/**
 * Scoring an engine answer against the gold answer of a generated document
 * (train/generate/types.ts), by output type:
 *
 * - text_quote: normText equal, or similarity ≥ 0.85 (normalize.ts: upper-case, punctuation
 *   dropped, spaces collapsed; the larger of the character ratio and the token Dice)
 * - number: |answer − gold| < 0.01
 * - date: the same ISO `YYYY-MM-DD` string
 * - boolean, categorical: the same string ignoring case
 * - list_scalar: set F1 over normalised items (fuzzy one-to-one matching), right when F1 = 1
 *   (exactly the wanted items, the corpus rule in score.ts)
 * - image, image_list: right when every gold region is matched one-to-one by an answered
 *   region on the same page with IoU ≥ 0.5; `f1` is the F1 over regions
 * - null gold (or an empty list): right only when the answer is null or empty
 */
import type { OutputType } from '../../src/domain/columns.ts';
import type { AnswerValue, Box, Region } from '../../src/engine/types.ts';
import type { GoldAnswer, RegionAnswer } from '../../train/generate/types.ts';
import { FUZZY_THRESHOLD, similarity } from './normalize.ts';
import { listF1 } from './score.ts';

/** A list is right when it is the wanted set: one rule with the corpus eval (score.ts). */
export const LIST_F1_RIGHT = 1;
export const IOU_THRESHOLD = 0.5;

export interface GeneratedScore {
  right: boolean;
  /** F1 for list_scalar and image_list (1 for a right empty answer), otherwise null. */
  f1: number | null;
}

const isBlank = (v: unknown) =>
  v === null ||
  v === undefined ||
  (typeof v === 'string' && v.trim() === '') ||
  (Array.isArray(v) && v.length === 0);

/** Intersection over union of two 0-1 boxes (xmin, ymin, xmax, ymax); 0 for empty or malformed boxes. */
export function boxIoU(a: Box, b: Box): number {
  const area = (x: Box) => Math.max(0, x[2] - x[0]) * Math.max(0, x[3] - x[1]);
  const iw = Math.min(a[2], b[2]) - Math.max(a[0], b[0]);
  const ih = Math.min(a[3], b[3]) - Math.max(a[1], b[1]);
  const inter = iw > 0 && ih > 0 ? iw * ih : 0;
  const union = area(a) + area(b) - inter;
  return union > 0 && Number.isFinite(union) ? inter / union : 0;
}

/** Gold regions matched one-to-one (best IoU first) by answered regions on the same page with IoU ≥ 0.5. */
export function matchRegions(gold: readonly RegionAnswer[], got: readonly Region[]): number {
  const pairs: { i: number; j: number; iou: number }[] = [];
  for (const [i, g] of gold.entries()) {
    for (const [j, r] of got.entries()) {
      if (r.page !== g.page || !Array.isArray(r.box) || r.box.length !== 4) continue;
      const iou = boxIoU(g.box, r.box);
      if (iou >= IOU_THRESHOLD) pairs.push({ i, j, iou });
    }
  }
  pairs.sort((a, b) => b.iou - a.iou);
  const usedG = new Set<number>();
  const usedR = new Set<number>();
  for (const p of pairs) {
    if (usedG.has(p.i) || usedR.has(p.j)) continue;
    usedG.add(p.i);
    usedR.add(p.j);
  }
  return usedG.size;
}

const f1Of = (matched: number, gold: number, got: number) =>
  gold === 0 && got === 0 ? 1 : matched === 0 ? 0 : (2 * matched) / (gold + got);

/** The raw value of an answer: regions for an array, `value` for `{type, value}`, null otherwise. */
function rawValue(answer: AnswerValue | null | undefined): unknown {
  if (answer === null || answer === undefined) return null;
  if (Array.isArray(answer)) return answer;
  return typeof answer === 'object' && 'value' in answer ? answer.value : null;
}

function toNumber(v: unknown): number | null {
  if (typeof v === 'number') return Number.isFinite(v) ? v : null;
  if (typeof v === 'string' && v.trim() !== '') {
    const n = Number(v.replace(/[$,\s]/g, ''));
    return Number.isFinite(n) ? n : null;
  }
  return null;
}

const asText = (v: unknown) => (Array.isArray(v) ? v.map(String).join(' ') : String(v));

/** Scores `answer` (null for no answer or an ERROR) against a generated question's gold answer. */
export function scoreGenerated(
  outputType: OutputType,
  gold: GoldAnswer,
  answer: AnswerValue | null,
): GeneratedScore {
  const listLike = outputType === 'list_scalar' || outputType === 'image_list';
  const value = rawValue(answer);
  if (isBlank(gold)) {
    const right = isBlank(value);
    return { right, f1: listLike ? (right ? 1 : 0) : null };
  }
  if (isBlank(value)) return { right: false, f1: listLike ? 0 : null };
  switch (outputType) {
    case 'text_quote': {
      const right = similarity(String(gold), asText(value)) >= FUZZY_THRESHOLD;
      return { right, f1: null };
    }
    case 'number': {
      const got = toNumber(value);
      const want = toNumber(gold);
      return { right: got !== null && want !== null && Math.abs(got - want) < 0.01, f1: null };
    }
    case 'date':
      return { right: typeof value === 'string' && value.trim() === String(gold), f1: null };
    case 'boolean':
    case 'categorical':
      return { right: asText(value).trim().toLowerCase() === String(gold).trim().toLowerCase(), f1: null };
    case 'list_scalar': {
      const want = Array.isArray(gold) ? gold.map(String) : [String(gold)];
      const got = Array.isArray(value) ? value.map(String) : [asText(value)];
      const f1 = listF1(want, got);
      return { right: f1 >= LIST_F1_RIGHT - 1e-9, f1 };
    }
    case 'image':
    case 'image_list': {
      const want = Array.isArray(gold) ? (gold as RegionAnswer[]).filter(isRegion) : [];
      const got = Array.isArray(value)
        ? (value as unknown[]).filter((r): r is Region => typeof r === 'object' && r !== null)
        : [];
      const matched = matchRegions(want, got);
      const right = want.length > 0 && matched === want.length;
      return { right, f1: outputType === 'image_list' ? f1Of(matched, want.length, got.length) : null };
    }
  }
}

function isRegion(r: unknown): r is { page: number; box: Box } {
  return (
    typeof r === 'object' &&
    r !== null &&
    typeof (r as { page?: unknown }).page === 'number' &&
    Array.isArray((r as { box?: unknown }).box)
  );
}
