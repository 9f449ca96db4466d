import { stem } from '../text/tokenize.ts';
import { lexiconFile } from './lexicon-file.ts';

/**
 * Related words from a general-purpose lexicon (WordNet 3.1 synonyms and derived forms of a
 * word, built by `npm run build:synonyms`), keyed by Porter stem. Nothing here is specific to any document set.
 */
const load = lexiconFile<Record<string, string[]>>('synonyms.json');

/**
 * Typographic shorthand documents use for ordinary words: "#" and "No." for number, "Qty" for
 * quantity. General conventions of written English, like the lexicon above.
 */
const SHORTHAND: Record<string, string[]> = {
  number: ['#', 'no', 'nr', 'num', 'nbr'],
  quantity: ['qty'],
  amount: ['amt'],
  reference: ['ref'],
  account: ['acct', 'acc'],
  telephone: ['tel', 'ph'],
  phone: ['tel', 'ph'],
  identification: ['id'],
  identifier: ['id'],
  date: ['dt'],
  department: ['dept'],
  registration: ['reg'],
  description: ['desc'],
  company: ['co', 'corp', 'inc', 'ltd', 'llc'],
  corporation: ['corp', 'inc'],
  limited: ['ltd'],
  signature: ['sign', 'signed'],
  street: ['st'],
  avenue: ['ave'],
  percent: ['%', 'pct'],
  attention: ['attn'],
  address: ['addr'],
  manager: ['mgr'],
  apartment: ['apt'],
  building: ['bldg'],
  copy: ['cc', 'bcc'],
  invoice: ['inv'],
  // "PO" for a purchase order.
  purchase: ['po'],
  order: ['po'],
  enclosure: ['encl', 'enc'],
  // "Re:" (in re, "in the matter of") heads a letter's or memo's subject line.
  subject: ['re'],
  regarding: ['re'],
};
const SHORT = new Map<string, string[]>();
for (const [word, forms] of Object.entries(SHORTHAND)) SHORT.set(stem(word), forms);

const FORMS = new Set(Object.values(SHORTHAND).flat());
/** Whether a word is shorthand documents print for a word ("attn", "cc", "tel"), in any case. */
export const isShorthand = (word: string): boolean => FORMS.has(word.toLowerCase());

/** The shorthand documents print for the word whose stem is `s` ("attn" for attention). */
export const shorthandOf = (s: string): readonly string[] => SHORT.get(s) ?? [];

const FULL = new Map<string, string[]>();
for (const [word, forms] of Object.entries(SHORTHAND))
  for (const f of forms) FULL.set(stem(f), [...(FULL.get(stem(f)) ?? []), stem(word)]);

/** The stems of the words a shorthand stands for ("reference" for "ref", "order" for "po"). */
export const fullWordsOf = (s: string): readonly string[] => FULL.get(s) ?? [];

/** Stems related to `s` (not including `s`). */
export function relatedStems(s: string): string[] {
  return [...(load()[s] ?? []), ...(SHORT.get(s) ?? [])];
}

const derivations = lexiconFile<Record<string, string[]>>('derivations.json');

/**
 * The same word in its other parts of speech, from the lexicon's derivations (model/derivations.json):
 * "inspect" → "inspector", "owns" → "owner", "approve" → "approver". A question asks with a verb what
 * a caption names with a noun; unlike a synonym, the derived word means the same thing.
 */
export function derivedStems(s: string): string[] {
  return derivations()[s] ?? [];
}
