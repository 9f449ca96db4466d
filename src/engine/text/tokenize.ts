import { stemmer } from 'stemmer';
import { antonymStems } from '../local/antonyms.ts';
import { verbOf } from '../local/irregulars.ts';
import { nounKind } from '../local/nouns.ts';
import { compoundParts } from './translations.ts';

/** Words that carry no evidence on their own: question words, auxiliaries, articles. */
export const STOPWORDS: ReadonlySet<string> = new Set(
  (
    'a an the of to in on at by for from with as is are was were be been being am do does did ' +
    "this that these those it its it's there their them they he she his her we our you your i me my " +
    'and or nor but if then than so such any all each every some which who whom whose what when where why how ' +
    'can could shall should will would may might must has have had having not no yes ' +
    'please give tell stated list find answer document documents agreement page pages ' +
    'e.g eg ie i.e about into onto upon per via one only also'
  ).split(/\s+/),
);

/** Question words and frames that say what kind of answer is wanted, not what to look for. */
const QUESTION_NOISE: ReadonlySet<string> = new Set(
  'what which who whom whose when where why how many much long does do is are was were'.split(' '),
);

const stemCache = new Map<string, string>();

/**
 * Porter strips "-er" as it strips "-ed", so the one who acts and the act done become one stem:
 * "insurer" and "insured", "provider" and "provided", "employer" and "employ". A role is not its
 * verb (the insurer is the other party from the insured), so an agent noun keeps its "-er".
 */
function agentAware(word: string, porter: string): string {
  const base = word.endsWith('ers') ? word.slice(0, -1) : word;
  if (!base.endsWith('er') || porter.endsWith('er') || porter.length < 3) return porter;
  // Only nouns the lexicon files as people or organisations: "deliver" and "register" stay verbs.
  return nounKind(base) ? `${porter}er` : porter;
}

/** Porter stem of a lower-cased word, memoised (the same few thousand words recur). */
export function stem(word: string): string {
  let s = stemCache.get(word);
  if (s === undefined) {
    const w = verbOf(word) ?? word;
    s = /^[a-z]+$/.test(w) && w.length > 3 ? agentAware(w, stemmer(w)) : w;
    if (stemCache.size > 50_000) stemCache.clear();
    stemCache.set(word, s);
  }
  return s;
}

/** Letters with accents as their plain letters ("Numéro" → "Numero", "Straße" → "Strasse"). */
function foldAccents(text: string): string {
  // biome-ignore lint/suspicious/noControlCharactersInRegex: the ASCII range itself
  if (!/[^\u0000-\u007f]/.test(text)) return text;
  return text.normalize('NFD').replace(/\p{M}/gu, '').replace(/ß/g, 'ss');
}

/**
 * Lower-cased alphanumeric pieces of a text, accents folded; `#` is kept as a token since
 * forms use it as "number", and German or Dutch compounds of known words are split.
 */
export function rawTokens(text: string): string[] {
  const tokens =
    foldAccents(text)
      .toLowerCase()
      .match(/[a-z0-9]+(?:['’][a-z]+)?|#/g) ?? [];
  if (!tokens.some((t) => t.length >= 7)) return tokens;
  return tokens.flatMap((t) => compoundParts(t) ?? [t]);
}

/**
 * How negated words count: `both`, the word and its opposites ("not include" says "include"
 * and "exclude"); `literal`, the word as written; `asserted`, only what is said, the opposites.
 */
type Negation = 'both' | 'literal' | 'asserted';

const stemsCache = new Map<string, string[]>();
const literalCache = new Map<string, string[]>();
const assertedCache = new Map<string, string[]>();

/** Memoised per text (labels and cells recur), the table cleared when it grows large. */
function cachedStems(cache: Map<string, string[]>, text: string, negations: Negation): string[] {
  let hit = cache.get(text);
  if (hit === undefined) {
    hit = computeContentStems(text, negations);
    if (cache.size > 50_000) cache.clear();
    cache.set(text, hit);
  }
  return hit;
}

/** Stemmed content tokens of a text, stopwords dropped. */
export function contentStems(text: string): string[] {
  return cachedStems(stemsCache, text, 'both');
}

/**
 * contentStems without the opposites of negated words: for telling a label that names the
 * opposite of a question ("Closing balance") from a sentence that denies it ("not allowed").
 */
export function literalStems(text: string): string[] {
  return cachedStems(literalCache, text, 'literal');
}

/**
 * What a text says, a negated word read as its opposite only: "does not include" asserts
 * "exclude", not "include"; for telling a sentence that includes from one that leaves out.
 */
export function assertedStems(text: string): string[] {
  return cachedStems(assertedCache, text, 'asserted');
}

/**
 * Words that turn the next content word into its opposite ("not include", "doesn't allow"); not
 * "no", which documents write for "number" ("Invoice No. 123").
 */
const NEGATIONS: ReadonlySet<string> = new Set(['not', 'never', 'nor', 'cannot']);

/**
 * A negated word also stands for its opposite: "does not include" says "excludes", "not
 * allowed" says "forbidden", so the lexicon's antonyms of the word follow its own stem.
 */
function computeContentStems(text: string, negations: Negation): string[] {
  const out: string[] = [];
  let negated = false;
  for (const t of rawTokens(text)) {
    const w = t.replace(/['’]s$/, '');
    if (NEGATIONS.has(w) || /n['’]t$/.test(w)) {
      negated = true;
      continue;
    }
    if (STOPWORDS.has(w) || QUESTION_NOISE.has(w)) continue;
    const s = stem(w);
    if (!negated || negations !== 'asserted') out.push(s);
    if (negated && negations !== 'literal') out.push(...antonymStems(s));
    negated = false;
  }
  return out;
}

/** Normalised form for comparing strings: upper case, letters and digits, single spaces. */
export function normalizeLoose(text: string): string {
  return text
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toUpperCase()
    .replace(/[^A-Z0-9]+/g, ' ')
    .trim();
}

/** Text matched literally inside a regular expression. */
export const escapeRegex = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
