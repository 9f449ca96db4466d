import { contentStems, stem } from '../text/tokenize.ts';
import { foreignWords } from '../text/translations.ts';

/**
 * Which label words answer which question words, learned from training documents (`npm run
 * train`): "subject" → "re", "approved" → "approved", "number" → "no". A general association of
 * words, counted over many document families; nothing in it names a field.
 * Key `group|promptStem|labelStem` → log odds that a value so labelled answers, relative to the
 * base rate of its answer group.
 */
export type Associations = Record<string, number>;

const clip = (x: number) => Math.max(-3, Math.min(3, x));

/**
 * A label's words, those of other languages as the English word they stand for: "Vervaldatum"
 * answers what "Due date" answers, though training printed it only on the few invoices written
 * in Dutch.
 */
function labelStems(text: string): string[] {
  let hit = labelCache.get(text);
  if (hit === undefined) {
    if (!englishStem) englishStem = new Map([...foreignWords()].map(([f, e]) => [stem(f), stem(e)]));
    hit = contentStems(text).map((s) => englishStem!.get(s) ?? s);
    // Labels recur across candidates and questions: read each once (bounded like contentStems).
    if (labelCache.size > 50_000) labelCache.clear();
    labelCache.set(text, hit);
  }
  return hit;
}
let englishStem: Map<string, string> | null = null;
const labelCache = new Map<string, string[]>();

/** Sum of the associations between the prompt's words and the words given (a picture's place words). */
export function associationSum(
  table: Associations | undefined,
  group: string,
  prompt: readonly string[],
  words: string,
): number {
  if (!table || !words) return 0;
  let sum = 0;
  for (const l of labelStems(words)) for (const p of prompt) sum += table[`${group}|${p}|${l}`] ?? 0;
  return Math.max(-6, Math.min(6, sum));
}

/**
 * How strongly a label's words answer the prompt: for each prompt word its best association
 * with a label word, averaged over the prompt's words, so one shared word ("invoice" in both
 * "who issued this invoice" and "who is the invoice addressed to") cannot decide alone.
 */
export function associationMean(
  table: Associations | undefined,
  group: string,
  prompt: readonly string[],
  label: string,
): number {
  if (!table || !label || prompt.length === 0) return 0;
  const stems = labelStems(label);
  let sum = 0;
  for (const p of prompt) {
    let best = 0;
    for (const l of stems) {
      const a = table[`${group}|${p}|${l}`];
      if (a !== undefined && Math.abs(a) > Math.abs(best)) best = a;
    }
    sum += best;
  }
  return sum / prompt.length;
}

/** The strongest association between the prompt's words and a label's words (0 when none known). */
export function associationScore(
  table: Associations | undefined,
  group: string,
  prompt: readonly string[],
  label: string,
): number {
  if (!table || !label) return 0;
  let best = 0;
  for (const l of labelStems(label)) {
    for (const p of prompt) {
      const a = table[`${group}|${p}|${l}`];
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
    const stems = new Set(labels.flatMap((l) => labelStems(l)));
    if (right) this.totalPos++;
    else this.totalNeg++;
    const into = right ? this.pos : this.neg;
    // A label that writes the question's word itself is what the match features measure: as an
    // association it would learn only how often one family prints that word in its other
    // captions ("pay" on every line of a payslip), and the label's other words would learn to
    // stand for it ("Account (IBAN)" teaching that "Account holder:" answers "What is the IBAN?").
    for (const p of new Set(prompt)) {
      if (stems.has(p)) continue;
      for (const l of stems) into.set(`${p}|${l}`, (into.get(`${p}|${l}`) ?? 0) + 1);
    }
  }

  /** A counter holding the counts of all the given ones. */
  static sum(counters: readonly AssociationCounter[]): AssociationCounter {
    const out = new AssociationCounter();
    for (const c of counters) {
      out.totalPos += c.totalPos;
      out.totalNeg += c.totalNeg;
      for (const [k, v] of c.pos) out.pos.set(k, (out.pos.get(k) ?? 0) + v);
      for (const [k, v] of c.neg) out.neg.set(k, (out.neg.get(k) ?? 0) + v);
    }
    return out;
  }

  table(group: string, minCount = 12): Associations {
    const base = (this.totalPos + 1) / (this.totalNeg + 1);
    const out: Associations = {};
    const keys = new Set([...this.pos.keys(), ...this.neg.keys()]);
    for (const k of [...keys].sort()) {
      const p = this.pos.get(k) ?? 0;
      const n = this.neg.get(k) ?? 0;
      if (p + n < minCount) continue;
      const a = clip(Math.log((p + 0.5) / (n + 0.5) / base));
      if (Math.abs(a) >= 0.7) out[`${group}|${k}`] = Math.round(a * 100) / 100;
    }
    return out;
  }
}
