import { contentStems } from '../text/tokenize.ts';

/**
 * Which label words answer which question words, learned from training documents (`npm run
 * train`): "subject" → "re", "approved" → "approved", "number" → "no". A general association of
 * words, counted over many document families; nothing in it names a field.
 * Key `promptStem|labelStem` → log odds that a value so labelled answers, relative to the base rate.
 */
export type Associations = Record<string, number>;

const clip = (x: number) => Math.max(-3, Math.min(3, x));

/** The strongest association between the prompt's words and a label's words (0 when none known). */
export function associationScore(table: Associations | undefined, prompt: readonly string[], label: string): number {
  if (!table || !label) return 0;
  let best = 0;
  for (const l of contentStems(label)) {
    for (const p of prompt) {
      const a = table[`${p}|${l}`];
      if (a !== undefined && Math.abs(a) > Math.abs(best)) best = a;
    }
  }
  return best;
}

/** Counts label words of right and wrong candidates per prompt word, and keeps the telling pairs. */
export class AssociationCounter {
  private readonly pos = new Map<string, number>();
  private readonly neg = new Map<string, number>();
  private totalPos = 0;
  private totalNeg = 0;

  add(prompt: readonly string[], labels: readonly string[], right: boolean): void {
    const stems = new Set(labels.flatMap((l) => contentStems(l)));
    if (right) this.totalPos++;
    else this.totalNeg++;
    const into = right ? this.pos : this.neg;
    for (const p of new Set(prompt)) for (const l of stems) into.set(`${p}|${l}`, (into.get(`${p}|${l}`) ?? 0) + 1);
  }

  table(minCount = 8): Associations {
    const base = (this.totalPos + 1) / (this.totalNeg + 1);
    const out: Associations = {};
    const keys = new Set([...this.pos.keys(), ...this.neg.keys()]);
    for (const k of [...keys].sort()) {
      const p = this.pos.get(k) ?? 0;
      const n = this.neg.get(k) ?? 0;
      if (p + n < minCount) continue;
      const a = clip(Math.log((p + 0.5) / (n + 0.5) / base));
      if (Math.abs(a) >= 0.7) out[k] = Math.round(a * 100) / 100;
    }
    return out;
  }
}
