import type { OutputType } from '../../domain/columns.ts';
import { contentStems, escapeRegex, literalStems, STOPWORDS, stem } from '../text/tokenize.ts';
import type { Box, ColumnConfig, ScalarValue } from '../types.ts';
import { antonymStems } from './antonyms.ts';
import {
  type Candidate,
  dateCandidates,
  durationCandidates,
  durationIn,
  NUMBER_WORD_ALTERNATIVES,
  type NumberValue,
  numberCandidates,
  scan,
} from './candidates.ts';
import type { DocIndex, Passage } from './doc-index.ts';
import { captionedSeries, enumerateItems, markedItems } from './enumerate.ts';
import { lineOfWord, nearbyOf } from './nearby.ts';
import { namesWriting, nounKind } from './nouns.ts';
import { valueCandidates } from './pairs.ts';
import type { Contact, Query } from './query.ts';
import type { Located } from './retrieval.ts';
import { labelScore, topPassages } from './retrieval.ts';
import { isBareCaption } from './roles.ts';
import { derivedStems, relatedStems } from './synonyms.ts';

/**
 * Where a candidate came from. Every source is a layout or typing rule that holds for any
 * document: a value after its label, a form/table cell, a typed span, a sentence.
 */
export const SOURCES = [
  'cell',
  'line',
  'after-label',
  'identifier',
  'name',
  'typed',
  'sentence',
  'category',
  'item',
  'picture',
  'clause',
] as const;
export type Source = (typeof SOURCES)[number];

/** One possible answer read from the page words; its words are what its citation quotes. */
export interface TypedCandidate {
  source: Source;
  at: Located;
  value: ScalarValue;
  text: string;
  /** Type-specific measurements of the value itself, 0-1 (see features.ts). */
  traits: Partial<Record<Trait, number>>;
  /** Items counted out in one clause ("(a) …; (b) …") share this key: a reader who takes one takes all. */
  series?: string;
  /** Picture candidates: the region and its nearby words. */
  picture?: { page: number; box: Box; caption: string; captionAt: Located | null };
}

export type Trait =
  /** A figure in the unit a count question names (inUnitAsked); read by the sole-value rule, not a feature. */
  | 'unitAsked'
  | 'addressShape'
  | 'groupNoun'
  | 'currency'
  | 'decimals'
  | 'percent'
  | 'suspicious'
  | 'largest'
  | 'negative'
  | 'zero'
  | 'converted'
  | 'rangeMatch'
  | 'rangeMismatch'
  | 'rangeBound'
  | 'earliest'
  | 'latest'
  | 'idShape'
  | 'nameShape'
  | 'orgSuffix'
  | 'hasDigits'
  | 'endsLikeLabel'
  | 'isDate'
  | 'isMoney'
  | 'isDuration'
  | 'long'
  | 'count'
  | 'negation'
  | 'checkedYes'
  | 'checkedNo'
  | 'valueFound'
  | 'defined'
  | 'prose'
  | 'ticked'
  | 'unticked'
  | 'lexicon'
  | 'writing'
  | 'described'
  | 'partial'
  | 'isEmail'
  | 'isPhone'
  | 'isWeb';

export type Group = 'text' | 'number' | 'date' | 'categorical' | 'list' | 'boolean' | 'image';

export function groupOf(type: OutputType): Group {
  switch (type) {
    case 'text_quote':
      return 'text';
    case 'list_scalar':
      return 'list';
    case 'image':
    case 'image_list':
      return 'image';
    default:
      return type;
  }
}

const BULLET = /^(?:[•●▪◦‣\-–*·]|\(?[a-z0-9]{1,3}[.)])$/i;

const ORG_SUFFIX =
  /\b(?:inc|llc|l\.l\.c|ltd|limited|corp|corporation|co|company|plc|gmbh|ag|sa|s\.a|bv|b\.v|nv|lp|l\.p|llp|pty|srl|s\.r\.l|sas|sarl|s\.a\.r\.l|kgaa|ohg|gbr|oyj|pvt|pte|bhd|kft|ltda|lda|s\.r\.o|bvba|sprl|group|holdings|partners|bank|trust|association|foundation|university)\.?$/i;
/** A legal form proper, which ends a name ("Bank", "Group" or "University" may open one). */
const LEGAL_FORM =
  /^(?:inc|llc|l\.l\.c|ltd|corp|plc|gmbh|ag|s\.a|bv|b\.v|nv|n\.v|lp|l\.p|llp|pty|srl|s\.r\.l|sarl|s\.a\.r\.l|kgaa|oyj|pvt|pte|bhd|ltda|bvba)\.?$/i;
/** Legal forms that are also common words in lower case ("as", "se", "spa"): only as companies write them. */
const ORG_SUFFIX_CASED = /(?:^|\s)(?:KG|UG|SE|AS|ASA|A\/S|ApS|AB|Oy|SpA|S\.p\.A|eG|e\.\s?V)\.?$/;
/** A name ending in a company's legal form ("Ltd", "GmbH & Co. KG", "S.p.A."). */
export const isOrgSuffix = (text: string) => ORG_SUFFIX.test(text) || ORG_SUFFIX_CASED.test(text);
/**
 * An identifier token; a number sign glued in front ("#123", "N°562044387", "Nr.30064443") is
 * not part of it, nor is the mask before a card's or account's last digits ("XXXX5796", "xxxx-6008").
 */
const ID_TOKEN =
  /^(?:n[°º]|no\.|nr\.)?(?:[*xX•]{2,}-?(?=\d)|[#:*xX]*?)([A-Z0-9][A-Z0-9\-/._]*\d[A-Z0-9\-/._]*|\d[A-Z0-9\-/._]*)[.,;:]?$/i;
/** One group of an identifier written in spaced groups ("DE89 3704 0044", "4532 1234 5678 9010"). */
const ID_GROUP = /^\+?[A-Z0-9]{1,6}$/;
/** Spaced groups that read as one identifier: at least two groups, six digits, no lower case. */
const isGroupedId = (words: readonly string[]) =>
  words.length >= 2 &&
  words.every((w) => ID_GROUP.test(w)) &&
  words.filter((w) => /\d/.test(w)).length >= 2 &&
  words.join('').replace(/\D/g, '').length >= 6;
const isGroupHead = (w: string | undefined) => w !== undefined && ID_GROUP.test(w) && /\d/.test(w);
/**
 * Where an identifier written in spaced groups that starts at word k ends, or -1. It starts at a
 * group with a digit ("DE89", not the "TO" of "PAY TO DE89 ...") that no such group precedes.
 */
function groupedIdEnd(words: readonly string[], k: number): number {
  if (!isGroupHead(words[k]) || isGroupHead(words[k - 1])) return -1;
  let end = k;
  // A "+" opens a telephone number ("M27 T384 +353 77 066 9284": a postcode, then the number).
  while (
    end + 1 < words.length &&
    end - k < 7 &&
    ID_GROUP.test(words[end + 1]!) &&
    !words[end + 1]!.startsWith('+')
  )
    end++;
  return isGroupedId(words.slice(k, end + 1)) ? end : -1;
}
const LOOKS_LIKE_DATE = /^\d{1,4}[/.-]\d{1,2}[/.-]\d{2,4}$/;
const EMAIL = /^[\p{L}\d._%+-]+@[\p{L}\d-]+(?:\.[\p{L}\d-]+)*\.\p{L}{2,}$/u;
const WEB = /^(?:https?:\/\/\S+|www\.[\p{L}\d-]+(?:\.[\p{L}\d-]+)+(?:\/\S*)?)$/iu;
/** A telephone number as written: a country code, an area code in brackets, groups of digits. */
const PHONE = /^(?:\+\d{1,3}[\s.-]?)?(?:\(\d{1,5}\)[\s.-]?)?\d[\d\s./-]*\d$/;
const phoneDigits = (text: string) => text.replace(/\D/g, '').length;

/** The contact detail a piece of text is, by its shape alone. */
export function contactShape(text: string): Contact | null {
  const t = text
    .trim()
    .replace(/^(?:mailto:|tel:?|fax:?|phone:?|e-?mail:?)\s*/i, '')
    .replace(/[.,;:)]+$/, '');
  if (EMAIL.test(t)) return 'email';
  if (WEB.test(t)) return 'web';
  const digits = phoneDigits(t);
  // Digits alone are any number's; a telephone number is written in groups or with its codes.
  const written = /^[+(]/.test(t) || /\d[\s./-]\d/.test(t);
  if (PHONE.test(t) && written && digits >= 7 && digits <= 15 && !LOOKS_LIKE_DATE.test(t)) return 'phone';
  return null;
}
const MONEY_TEXT = /[$€£¥]|\b(?:usd|eur|gbp|chf)\b|^\(?-?\d{1,3}(?:[,. ]\d{3})*[.,]\d{2}\)?$/i;
const DURATION_TEXT = new RegExp(`\\b\\d+|\\b(?:${NUMBER_WORD_ALTERNATIVES})\\b`, 'i');
const NEGATION =
  /\b(?:no|not|never|none|neither|nor|without|unpaid|void|n\/a|cannot|can't|won't|shall not|does not|do not|is not|are not|will not|may not)\b/i;

const clip = (x: number) => Math.max(0, Math.min(1, x));

export function textTraits(text: string): Partial<Record<Trait, number>> {
  const words = text.split(/\s+/).filter(Boolean);
  const capital = words.filter((w) => /^[A-Z][\p{L}'’.&-]*[,.]?$/u.test(w)).length;
  return {
    idShape:
      (words.length <= 2 && words.some((w) => ID_TOKEN.test(w) && /\d/.test(w))) || isGroupedId(words)
        ? 1
        : 0,
    nameShape: words.length ? capital / words.length : 0,
    orgSuffix: isOrgSuffix(text.replace(/[,;:]+$/, '')) ? 1 : 0,
    hasDigits: /\d/.test(text) ? 1 : 0,
    endsLikeLabel: /[:#]$/.test(text) ? 1 : 0,
    isDate: LOOKS_LIKE_DATE.test(text) ? 1 : 0,
    isMoney: MONEY_TEXT.test(text) ? 1 : 0,
    isDuration: DURATION_TEXT.test(text) && /\b(?:days?|weeks?|months?|years?)\b/i.test(text) ? 1 : 0,
    long: clip(words.length / 20),
    prose: words.length > 5 && words.filter((w) => /^[a-z]/.test(w)).length / words.length > 0.4 ? 1 : 0,
    lexicon: lexiconShare(text),
    addressShape: ADDRESS.test(text) ? 1 : 0,
    groupNoun: namesGroup(words) ? 1 : 0,
    writing: headedBy(words, namesWriting) ? 1 : 0,
    ...contactTraits(text),
  };
}

function contactTraits(text: string): Partial<Record<Trait, number>> {
  switch (contactShape(text)) {
    case 'email':
      return { isEmail: 1 };
    case 'phone':
      return { isPhone: 1 };
    case 'web':
      return { isWeb: 1 };
    default:
      return {};
  }
}

/**
 * A name headed by a noun of groups ("Greenview Savings Bank", "State Board of Nursing"): its
 * last word, or its word before "of" or "for", as English names organisations.
 */
function namesGroup(words: readonly string[]): boolean {
  return headedBy(words, (w) => nounKind(w) === 'group');
}

/** Whether a capitalised name's head noun (its last word, or its word before "of" or "for") is of a kind. */
function headedBy(words: readonly string[], kind: (word: string) => boolean): boolean {
  const bare = words.map((w) => w.replace(/[,.;:()]+$/, ''));
  const head = (w: string | undefined) => !!w && /^[A-Z]/.test(w) && kind(w);
  const of = bare.findIndex((w) => /^(?:of|for)$/i.test(w));
  return head(bare[bare.length - 1]) || (of > 0 && head(bare[of - 1]));
}

/** The words English names its streets with, for the address shape and for addresses in clauses. */
const STREET_WORDS =
  'street|st|road|rd|avenue|ave|lane|ln|drive|dr|boulevard|blvd|court|ct|way|place|pl|parkway|pkwy|plaza|square|terrace|highway|hwy|circle|crescent|close';
const STREET_WORD = new RegExp(`^(?:${STREET_WORDS})\\.?,?$`, 'i');
const UNIT_WORD = /^(?:suite|ste\.?|apt\.?|apartment|unit|floor|fl\.?|#\S*)$/i;

/**
 * Street addresses inside running text ("located at 2417 Maple Avenue, Clinton, NC"): a house
 * number, up to four capitalised words and a street word, with a suite or flat after it.
 */
function streetSpans(unit: Passage, words: readonly string[]): TypedCandidate[] {
  const out: TypedCandidate[] = [];
  for (let k = 0; k < words.length; k++) {
    if (!/^\d{1,5}[A-Za-z]?$/.test(words[k]!)) continue;
    let end = -1;
    for (let j = k + 1; j < Math.min(words.length, k + 6); j++) {
      if (!/^[A-Z]/.test(words[j]!)) break;
      if (j > k + 1 && STREET_WORD.test(words[j]!)) {
        end = j;
        break;
      }
      if (/[,;.]$/.test(words[j]!)) break;
    }
    if (end < 0) continue;
    if (words[end]!.endsWith(',') && UNIT_WORD.test(words[end + 1] ?? '') && words[end + 2]) end += 2;
    const text = words
      .slice(k, end + 1)
      .join(' ')
      .replace(/[,;:]+$/, '');
    out.push({ source: 'typed', at: located(unit, k, end), value: text, text, traits: textTraits(text) });
    k = end;
  }
  return out;
}

/**
 * A postal address: a house number before a street word, or a postcode among words, in the
 * conventions of the commonest address formats (English, continental, Dutch, British).
 */
const ADDRESS = new RegExp(
  [
    String.raw`\b\d{1,5}[A-Za-z]?,?\s+(?:[\p{L}.'-]+\s+){0,3}(?:${STREET_WORDS})\b\.?`,
    String.raw`\b\p{L}*(?:stra(?:ss|ß)e|str\.|weg|laan|straat|gasse|platz|plein|gracht)\s+\d{1,5}`,
    String.raw`\b(?:rue|via|calle|avenida|avenue|piazza|plaza)\s+(?:[\p{L}'-]+\s+){0,4}`,
    String.raw`\b[A-Z]{2}\s+\d{5}(?:-\d{4})?\b`,
    String.raw`\b\d{4}\s?[A-Z]{2}\b\s+\p{L}`,
    String.raw`\b[A-Z]{1,2}\d[A-Z\d]?\s+\d[A-Z]{2}\b`,
  ].join('|'),
  'iu',
);

/**
 * Share of a text's words that are ordinary words of the general lexicon ("Proprietary
 * Information", "Name (please print)"), as opposed to the coined and proper words names are
 * made of ("Xerox", "Kowalczyk"); a legal form does not count either way.
 */
function lexiconShare(text: string): number {
  let known = 0;
  let counted = 0;
  for (const s of contentStems(text)) {
    if (s.length < 2 || /\d/.test(s) || isOrgSuffix(s)) continue;
    counted++;
    if (relatedStems(s).length > 0) known++;
  }
  return counted ? known / counted : 0;
}

/** Terms the document defines for itself ("the “Company”"): roles and shorthands, not names. */
function definedTerms(index: DocIndex): Set<string> {
  const hit = index.memo.get('defined-terms') as Set<string> | undefined;
  if (hit) return hit;
  const out = new Set<string>();
  for (const u of index.units) {
    for (const m of u.text.matchAll(/[\u201c"]([\p{Lu}][\p{L}\p{N} ]{1,40})[\u201d"]/gu))
      out.add(m[1]!.trim().toUpperCase());
  }
  index.memo.set('defined-terms', out);
  return out;
}

function markDefined(index: DocIndex, cands: TypedCandidate[]): TypedCandidate[] {
  const defined = definedTerms(index);
  for (const c of cands) {
    if (typeof c.value !== 'string') continue;
    const v = c.value
      .replace(/^(?:the|this)\s+/i, '')
      .replace(/[.,;:]+$/, '')
      .toUpperCase();
    if (defined.has(v)) c.traits.defined = 1;
  }
  return cands;
}

function located(unit: Passage, from: number, to: number): Located {
  return { page: unit.page, unit, from, to };
}

function wordsOf(index: DocIndex, unit: Passage): string[] {
  const page = index.doc.pages[unit.page]!;
  return unit.words.map((w) => page.words[w]!.text);
}

const key = (c: TypedCandidate) => `${c.at.unit.id}:${c.at.from}:${c.at.to}:${String(c.value)}`;

function dedupe(cands: TypedCandidate[]): TypedCandidate[] {
  const seen = new Set<string>();
  return cands.filter((c) => {
    const k = key(c);
    if (seen.has(k)) return false;
    seen.add(k);
    return true;
  });
}

// ---------- text ----------

const CONNECTOR = /^(?:of|the|and|&|for|de|du|von|van|da|der|del)$/;
const MONTH =
  /^(?:Jan(?:uary)?|Feb(?:ruary)?|Mar(?:ch)?|Apr(?:il)?|May|June?|July?|Aug(?:ust)?|Sept?(?:ember)?|Oct(?:ober)?|Nov(?:ember)?|Dec(?:ember)?)\.?$/;
const CAPITAL = /^[A-Z0-9][\p{L}\p{N}.&'’-]*[,.;:)]?$/u;

/** Words that point at a thing and are never part of its name: "This Agreement" is no party. */
const DETERMINER = /^(?:this|that|these|those|such|each|every|any|all|our|your|its|their|his|her|said)$/i;

/** Runs of capitalised words (names of people, companies, places) inside a unit; read once per unit. */
function nameRuns(index: DocIndex, unit: Passage): TypedCandidate[] {
  let byUnit = index.memo.get('names') as Map<number, TypedCandidate[]> | undefined;
  if (!byUnit) {
    byUnit = new Map();
    index.memo.set('names', byUnit);
  }
  let names = byUnit.get(unit.id);
  if (!names) {
    names = unitNameRuns(index, unit);
    byUnit.set(unit.id, names);
  }
  return names;
}

function unitNameRuns(index: DocIndex, unit: Passage): TypedCandidate[] {
  const words = wordsOf(index, unit);
  const boxes = unit.words.map((w) => index.doc.pages[unit.page]!.words[w]!.box);
  // A name does not run on to the next printed line (a letterhead's name, then its street).
  const sameLine = (a: number, b: number) => {
    const x = boxes[a]!;
    const y = boxes[b]!;
    return Math.min(x[3], y[3]) - Math.max(x[1], y[1]) > 0.4 * Math.min(x[3] - x[1], y[3] - y[1]);
  };
  const bare = (j: number) => (words[j] ?? '').replace(/[,;:()]+$/, '');
  // Running text wraps a company's name anywhere ("between Oakhaven Payroll / Solutions LLC,"):
  // a run that began mid-sentence goes on to the next line when a legal form closes it there.
  // A name that starts its line (an address block's "Jane Doe" above "Acme Corp") stops, and so
  // does one after a title ("Vice President, Business Development" above "Stryker Corporation").
  const wrapsToLegalForm = (k: number, end: number) => {
    if (k === 0 || !sameLine(k - 1, k) || !/^\p{Ll}[\p{L}-]*$/u.test(words[k - 1]!)) return false;
    for (let j = end + 1; j <= end + 3 && j < words.length; j++) {
      if (!CAPITAL.test(words[j]!) || (j > end + 1 && !sameLine(j - 1, j))) return false;
      if (isOrgSuffix(bare(j))) return true;
    }
    return false;
  };
  const out: TypedCandidate[] = [];
  let k = 0;
  while (k < words.length) {
    // "Dear" opens a salutation, not the name after it; "WHEREAS," a recital ("WHEREAS, Company
    // wishes…"), however a defined term after it reads like a legal form.
    if (
      !/^[A-Z][\p{L}\p{N}.&'’-]*[,.;:)]?$/u.test(words[k]!) ||
      DETERMINER.test(words[k]!) ||
      /^(?:Dear|Hello|Hi)$/.test(words[k]!) ||
      /^(?:whereas|witnesseth|therefore|now)[,:]?$/i.test(words[k]!)
    ) {
      k++;
      continue;
    }
    // A month and its day ("Mar. 26, 2020") are a date, not a name.
    if (MONTH.test(words[k]!) && /^\d{1,2}(?:st|nd|rd|th)?[,.]?$/.test(words[k + 1] ?? '')) {
      k += 2;
      continue;
    }
    let end = k;
    while (
      end + 1 < words.length &&
      end - k < 8 &&
      !/[;:)]$/.test(words[end]!) &&
      // …unless it is a company's legal form, wrapped with its running text ("Westerly Industries / Inc., an Alabama").
      (sameLine(end, end + 1) || isOrgSuffix(bare(end + 1)) || wrapsToLegalForm(k, end)) &&
      (CAPITAL.test(words[end + 1]!) ||
        (CONNECTOR.test(words[end + 1]!) && /^[A-Z]/.test(words[end + 2] ?? '')))
    ) {
      // A comma ends a name unless a corporate suffix follows ("Acme, Inc.").
      if (/,$/.test(words[end]!) && !isOrgSuffix(words[end + 1]!)) break;
      // A company's name ends at its legal form: "Acme Ltd and Beta GmbH" are two names.
      if (words[end + 1] === 'and' && isOrgSuffix(words[end]!)) break;
      // So do two names side by side, as signature blocks print them ("Acme LLC Beta Corp").
      if (
        end > k &&
        LEGAL_FORM.test(words[end]!.replace(/[,;:()]+$/, '')) &&
        /^\p{Lu}/u.test(words[end + 1]!) &&
        !isOrgSuffix(words[end + 1]!.replace(/[,;:()]+$/, ''))
      )
        break;
      end++;
    }
    const text = words
      .slice(k, end + 1)
      .join(' ')
      .replace(/[,;:()]+$/g, '')
      // A legal form keeps its dot ("S.p.A.", "B.V."), also before a comma ("S.p.A., Via Roma").
      .replace(/\.$/, (d) => (isOrgSuffix(words[end]!.replace(/[,;:()]+$/, '')) ? d : ''));
    // After a house number, capitalised words ending in a street word name a street ("12 Willow
    // Street"), not a person or a company; streetSpans reads it with its number.
    const street = k > 0 && /^\d{1,5}[A-Za-z]?,?$/.test(words[k - 1]!) && STREET_WORD.test(words[end]!);
    if (/\p{L}{2}/u.test(text) && !street) {
      out.push({ source: 'name', at: located(unit, k, end), value: text, text, traits: textTraits(text) });
      // After a caption that names a role without a colon ("Employee Wilhelmina Abernathy",
      // "Tenant Jo Park"), the name without it is a candidate too.
      if (end - k >= 2 && nounKind(words[k]!.replace(/[.:,]+$/, '')) === 'person') {
        const rest = words
          .slice(k + 1, end + 1)
          .join(' ')
          .replace(/[,;:()]+$/g, '');
        out.push({
          source: 'name',
          at: located(unit, k + 1, end),
          value: rest,
          text: rest,
          traits: textTraits(rest),
        });
      }
      // The name without a leading title word ("State of X" → "X") is a candidate too.
      const of = words.slice(k, end + 1).findIndex((w) => /^of$/i.test(w));
      if (of > 0 && of < end - k) {
        const tail = words
          .slice(k + of + 1, end + 1)
          .join(' ')
          .replace(/[,;:()]+$/g, '')
          .replace(/\.$/, '');
        out.push({
          source: 'name',
          at: located(unit, k + of + 1, end),
          value: tail,
          text: tail,
          traits: textTraits(tail),
        });
      }
    }
    k = end + 1;
  }
  return out;
}

/** Short-text candidates: label/value pairs, cells, identifiers, names, typed spans, sentences. */
function textCandidates(index: DocIndex, query: Query, scores: Float64Array): TypedCandidate[] {
  const out: TypedCandidate[] = [];
  for (const c of valueCandidates(index, query)) {
    const words = wordsOf(index, c.at.unit).slice(c.at.from, c.at.to + 1);
    const source: Source = c.at.from === 0 ? 'cell' : 'after-label';
    // A value ends where the next label starts ("INV-1 Invoice Date: ...").
    let n = Math.min(words.length, 12);
    for (let k = 1; k < n; k++) {
      if (/^\p{L}[\p{L}.#]*:$/u.test(words[k]!)) {
        n = k;
        // "Invoice Date:" — the label's first word belongs to it too, when capitalised.
        if (n > 1 && /^[A-Z]/.test(words[k - 1]!) && !/\d/.test(words[k - 1]!)) n--;
        break;
      }
    }
    const text = words
      .slice(0, n)
      .join(' ')
      .replace(/^[:#\-–\s]+|[\s,;:]+$/g, '');
    if (text && /[\p{L}\p{N}]/u.test(text)) {
      out.push({
        source,
        at: { ...c.at, to: c.at.from + n - 1 },
        value: text,
        text,
        traits: textTraits(text),
      });
    }
    // The first identifier-looking token after the label, whole when written in spaced groups.
    for (let k = 0; k < Math.min(words.length, 3); k++) {
      const m = words[k]!.match(ID_TOKEN);
      if (!m) continue;
      const end = groupedIdEnd(words, k);
      const id = end > k ? words.slice(k, end + 1).join(' ') : m[1]!.replace(/[.,;:]$/, '');
      if (id.length >= 3 && !LOOKS_LIKE_DATE.test(id)) {
        out.push({
          source: 'identifier',
          at: { ...c.at, from: c.at.from + k, to: c.at.from + Math.max(k, end) },
          value: id,
          text: id,
          traits: textTraits(id),
        });
      }
      break;
    }
  }
  // Names from the passages most about the question, and from the first page, where documents
  // name who they are from and to.
  const named = new Set<number>();
  for (const p of [
    ...topPassages(index, scores, 10, ['sentence', 'segment']).map((s) => s.passage),
    ...index.units.filter((u) => u.page === 0).slice(0, 40),
  ]) {
    if (named.has(p.id)) continue;
    named.add(p.id);
    out.push(...nameRuns(index, p));
  }
  out.push(...lineCandidates(index));
  for (const s of topPassages(index, scores, 4, ['sentence'])) {
    const p = s.passage;
    if (p.words.length > 60) continue;
    out.push({
      source: 'sentence',
      at: located(p, 0, p.words.length - 1),
      value: p.text,
      text: p.text,
      traits: textTraits(p.text),
    });
  }
  out.push(...documentSpans(index));
  const dated = dateWords(index);
  return dedupe(
    out.filter((c) => !isBareCaption(c.text) && !inTelephoneNumber(c, out) && !inWrittenDate(c, dated)),
  );
}

/** The page words (`page:word`) of the dates written in the document, read once per document. */
function dateWords(index: DocIndex): Set<string> {
  const hit = index.memo.get('date-words') as Set<string> | undefined;
  if (hit) return hit;
  const out = new Set<string>();
  for (const c of dateCandidates(index)) if (c.at.to > c.at.from) for (const w of pageWords(c)) out.add(w);
  index.memo.set('date-words', out);
  return out;
}

/** An identifier or a name that is a piece of a written date ("2023", "July 2023" of "17 July 2023"). */
function inWrittenDate(c: TypedCandidate, dated: Set<string>): boolean {
  return (c.source === 'identifier' || c.source === 'name') && pageWords(c).every((w) => dated.has(w));
}

/**
 * Identifiers and typed spans anywhere in the document: the same for every question, so read
 * once per document (a run asks many questions of one document).
 */
function documentSpans(index: DocIndex): TypedCandidate[] {
  const hit = index.memo.get('document-spans') as TypedCandidate[] | undefined;
  if (hit) return hit;
  const out: TypedCandidate[] = contactSpans(index);
  // Identifier-looking tokens anywhere ("account ****8934", "Policy AB-12345"); one written in
  // spaced groups ("DE89 3704 0044 ...") whole, and not its groups one by one.
  for (const unit of index.units) {
    const words = wordsOf(index, unit);
    for (let k = 0; k < words.length; k++) {
      const end = groupedIdEnd(words, k);
      if (end > k) {
        const id = words.slice(k, end + 1).join(' ');
        out.push({
          source: 'identifier',
          at: located(unit, k, end),
          value: id,
          text: id,
          traits: textTraits(id),
        });
        k = end;
        continue;
      }
      const w = words[k]!;
      const m = w.match(ID_TOKEN);
      if (!m || !/\d/.test(w)) continue;
      const id = m[1]!.replace(/[.,;:]$/, '');
      if (id.length < 3 || LOOKS_LIKE_DATE.test(id) || MONEY_TEXT.test(w)) continue;
      out.push({
        source: 'identifier',
        at: located(unit, k, k),
        value: id,
        text: id,
        traits: textTraits(id),
      });
    }
  }
  // Typed spans, quoted as written.
  for (const c of dateCandidates(index)) out.push(typedText(c));
  for (const c of durationCandidates(index)) out.push(typedText(c));
  for (const c of numberCandidates(index)) if (c.value.currency) out.push(typedText(c));
  for (const unit of index.units) out.push(...streetSpans(unit, wordsOf(index, unit)));
  index.memo.set('document-spans', out);
  return out;
}

/** Page words of a candidate, as `page:word`. */
const pageWords = (c: { at: TypedCandidate['at'] }) =>
  c.at.unit.words.slice(c.at.from, c.at.to + 1).map((w) => `${c.at.page}:${w}`);

/** An identifier that is a part of a telephone number ("987-2409" of "(858) 987-2409"). */
function inTelephoneNumber(c: TypedCandidate, all: readonly TypedCandidate[]): boolean {
  if (c.source !== 'identifier' || c.traits.isPhone === undefined) return false;
  const mine = pageWords(c);
  return all.some((p) => {
    if (p === c || !p.traits.isPhone || p.at.to - p.at.from <= c.at.to - c.at.from) return false;
    const theirs = new Set(pageWords(p));
    return mine.every((w) => theirs.has(w));
  });
}

/**
 * E-mail addresses, websites and telephone numbers anywhere in the document, as written. A
 * telephone number is the longest run of up to six words from a word with a digit or a "+".
 */
function contactSpans(index: DocIndex): TypedCandidate[] {
  const out: TypedCandidate[] = [];
  const push = (unit: Passage, from: number, to: number, text: string) =>
    out.push({
      source: 'identifier',
      at: located(unit, from, to),
      value: text,
      text,
      traits: textTraits(text),
    });
  for (const unit of index.units) {
    const words = wordsOf(index, unit);
    // Groups of a longer identifier ("ES31 XPBW 4738 3376 7410 6985 69") are no telephone number.
    const groupEnd = new Int32Array(words.length).fill(-1);
    const groupStart = new Int32Array(words.length).fill(-1);
    for (let k = 0; k < words.length; k++) {
      const end = groupedIdEnd(words, k);
      if (end <= k) continue;
      for (let j = k; j <= end; j++) {
        groupEnd[j] = end;
        groupStart[j] = k;
      }
      k = end;
    }
    const inLonger = (from: number, to: number) =>
      groupEnd[from]! >= 0 && (groupStart[from]! < from || groupEnd[from]! > to);
    for (let k = 0; k < words.length; k++) {
      const w = words[k]!.replace(/[.,;:)]+$/, '');
      const one = contactShape(w);
      if (one === 'email' || one === 'web') {
        push(unit, k, k, w.replace(/^(?:mailto:|e-?mail:)/i, ''));
        continue;
      }
      if (!/^[+(]?\d/.test(w)) continue;
      let end = -1;
      // A telephone number is written on one line: the day of a date below it is no group of it.
      const lines = lineOfWord(index, unit.page);
      for (let j = k; j < Math.min(words.length, k + 6); j++) {
        if (lines[unit.words[j]!] !== lines[unit.words[k]!]) break;
        const text = words
          .slice(k, j + 1)
          .join(' ')
          .replace(/[.,;:]+$/, '');
        if (contactShape(text) === 'phone') end = j;
      }
      if (end < 0 || inLonger(k, end)) continue;
      push(
        unit,
        k,
        end,
        words
          .slice(k, end + 1)
          .join(' ')
          .replace(/[.,;:]+$/, ''),
      );
      k = end;
    }
  }
  return out;
}

/** Every short printed line (titles, subject lines, addressees), where its words lie in one unit. */
function lineCandidates(index: DocIndex): TypedCandidate[] {
  const hit = index.memo.get('lines') as TypedCandidate[] | undefined;
  if (hit) return hit;
  const out: TypedCandidate[] = [];
  const unitOf = new Map<string, Passage>();
  for (const u of index.units) for (const w of u.words) unitOf.set(`${u.page}:${w}`, u);
  index.layouts.forEach((layout, page) => {
    for (const line of layout.lines.slice(0, 80)) {
      const marked = BULLET.test(layout.page.words[line.words[0]!]!.text) ? 1 : 0;
      if (line.words.length - marked > 10) continue;
      const unit = unitOf.get(`${page}:${line.words[0]}`);
      if (!unit) continue;
      const from = unit.words.indexOf(line.words[0]!);
      const to = unit.words.indexOf(line.words[line.words.length - 1]!);
      if (from < 0 || to < from || to - from + 1 !== line.words.length) continue;
      const words = wordsOf(index, unit).slice(from, to + 1);
      // A bullet or item marker ("•", "-", "(a)", "3.") is not part of the item.
      const skip = words.length > 1 && BULLET.test(words[0]!) ? 1 : 0;
      const text = words
        .slice(skip)
        .join(' ')
        .replace(/[\s:;,]+$/, '');
      if (!/\p{L}/u.test(text)) continue;
      // "RE: Price adjustment", "Licensed To: Acme GmbH": the value after its own caption, so
      // the caption is read as its label (left of it); the line with its caption is no answer.
      const cap = words.slice(skip, skip + 4).findIndex((w) => /\p{L}.*:$/u.test(w));
      const start = skip + cap + 1;
      const rest =
        cap >= 0 && start < words.length
          ? words
              .slice(start)
              .join(' ')
              .replace(/[\s:;,]+$/, '')
          : '';
      if (/\p{L}|\d/u.test(rest)) {
        out.push({
          source: 'line',
          at: located(unit, from + start, to),
          value: rest,
          text: rest,
          traits: textTraits(rest),
        });
        continue;
      }
      out.push({
        source: 'line',
        at: located(unit, from + skip, to),
        value: text,
        text,
        traits: textTraits(text),
      });
    }
  });
  index.memo.set('lines', out);
  return out;
}

function typedText<T>(c: Candidate<T>): TypedCandidate {
  return { source: 'typed', at: c.at, value: c.text, text: c.text, traits: textTraits(c.text) };
}

// ---------- numbers and dates ----------

function numberCands(index: DocIndex, query: Query): TypedCandidate[] {
  const out: TypedCandidate[] = [];
  if (query.unit && query.unit !== 'percent') {
    for (const c of durationCandidates(index)) {
      out.push({
        source: 'typed',
        at: c.at,
        value: durationIn(c.value, query.unit),
        text: c.text,
        traits: { converted: c.value.unit === query.unit ? 0 : 1, isDuration: 1 },
      });
    }
  }
  const naming = namingNumbers(query.prompt);
  const rateAsked = query.unit === 'percent' || RATE_ASKED.test(query.prompt);
  const all = numberCandidates(index).filter(
    (c) =>
      !namesSomething(index, c, naming) &&
      (rateAsked || !c.value.percent) &&
      !numbersUnasked(c.value, query.prompt),
  );
  const totalAsked = TOTAL_ASKED.test(query.prompt);
  // The largest amount on the page: a rate ("15.0%") is no amount, however large its figure.
  // It is the total a document adds up to, so it counts only when a total is asked: asked for
  // net pay or a late fee, a scorer that learned "largest" from totals picks the earnings
  // before deductions or the balance.
  let largest = 0;
  for (const c of all)
    if ((c.value.currency || c.value.decimals) && !c.value.percent)
      largest = Math.max(largest, Math.abs(c.value.value));
  for (const c of all) {
    const v = c.value;
    out.push({
      source: 'typed',
      at: c.at,
      value: v.value,
      text: c.text,
      traits: {
        currency: v.currency ? 1 : 0,
        decimals: v.decimals ? 1 : 0,
        percent: v.percent ? 1 : 0,
        suspicious: v.suspicious ? 1 : 0,
        largest: totalAsked && largest > 0 && !v.percent && Math.abs(v.value) === largest ? 1 : 0,
        negative: v.value < 0 ? 1 : 0,
        // A nil amount ("0.00 EUR" of tax) is seldom the total or the fee asked for.
        zero: v.value === 0 ? 1 : 0,
      },
    });
  }
  return inUnitAsked(index, query, out);
}

/**
 * Questions a rate may answer ("the tax rate", "the discount", "by how much did it grow"); any
 * other question after a number asks for an amount or a count, which "15.0%" is not.
 */
const RATE_ASKED =
  /%|\b(?:rates?|percent\w*|pct|shares?|proportions?|ratios?|margins?|growth|gr[eo]w\w*|increase\w*|decrease\w*|chang\w*|discount\w*|yields?|interest|apr|apy|markup|commission)\b/i;

/**
 * "Section 22. LIMITATION OF LIABILITY": 22 numbers the clause, it is no figure of it, unless the
 * question asks after such parts ("Which section ...", "How many pages ...").
 */
function numbersUnasked(v: NumberValue, prompt: string): boolean {
  return v.numbers !== undefined && !new RegExp(`\\b${v.numbers}`, 'i').test(prompt);
}

/** The words a question names things by with a number ("Week 3", "Table 1"), and whether it names a year. */
interface Naming {
  words: ReadonlySet<string>;
  years: boolean;
}

function namingNumbers(prompt: string): Naming {
  const words = new Set<string>();
  let years = false;
  for (const m of prompt
    .toLowerCase()
    .matchAll(/(?:(\p{L}{2,})\s+)?(?<![\p{L}\d.,])(\d{1,4})(?!\d|[.,]\d)/gu)) {
    years ||= /^(19|20)\d\d$/.test(m[2]!);
    if (m[1] && !STOPWORDS.has(m[1])) words.add(m[1]);
  }
  return { words, years };
}

/**
 * A bare whole number the question names something by is that name, not its value: "What is
 * the revenue in 2020?" is not answered by a column header "2020", nor by "Week 1" beside the
 * "Week 3" asked, nor by the "1" of "Table 1"; a question naming a year takes no year for a value.
 */
function namesSomething(index: DocIndex, c: Candidate<NumberValue>, naming: Naming): boolean {
  if (naming.words.size === 0 && !naming.years) return false;
  const v = c.value;
  if (v.currency || v.percent || v.decimals || v.value < 0 || !Number.isInteger(v.value)) return false;
  // The bare value alone proves nothing: an item asked by its name ("Whiteboard markers (12)")
  // may well be ordered 12 times.
  if (naming.years && /^(19|20)\d\d$/.test(String(v.value)) && !/[,.\s]/.test(c.text.trim())) return true;
  if (c.at.from === 0) return false;
  const before = wordsOf(index, c.at.unit)
    [c.at.from - 1]!.toLowerCase()
    .replace(/[^\p{L}]+/gu, '');
  return naming.words.has(before);
}

/** A question after what a document adds up to: the total, the sum, what is owed in all. */
const TOTAL_ASKED =
  /\b(?:total(?:s|led|ling)?|sum(?:med)?|grand|overall|altogether|in all|ow(?:e|es|ed|ing))\b/i;

/** "How many GB …", "how many employees …": the unit a count question names. */
const COUNT_OF = /\bhow\s+many\s+(\p{L}[\p{L}-]*)/iu;

/**
 * A count asked in a unit ("How many GB were used?") is a figure written in that unit ("1.934
 * GB"), or captioned in it (a column "Usage (kWh)", a label "Distance (km)"), not an amount of
 * money beside it: when some figure carries the unit, only those answer.
 */
function inUnitAsked(index: DocIndex, query: Query, cands: TypedCandidate[]): TypedCandidate[] {
  const unit = COUNT_OF.exec(query.prompt)?.[1];
  if (!unit) return cands;
  const asked = stem(unit.toLowerCase());
  const unitWord = (w: string) => stem(w.toLowerCase().replace(/[^\p{L}-]+/gu, '')) === asked;
  const inUnit = cands.filter((c) => {
    const word = wordsOf(index, c.at.unit)[c.at.to + 1];
    if (word !== undefined && unitWord(word)) return true;
    const near = nearbyOf(index, c.at);
    return [near.columnHead, near.left].some((caption) => inParentheses(caption).some(unitWord));
  });
  if (inUnit.length === 0) return cands;
  return inUnit.map((c) => ({ ...c, traits: { ...c.traits, unitAsked: 1 } }));
}

/** The words a caption puts in parentheses: where it names its unit ("Usage (kWh)"). */
const inParentheses = (caption: string) =>
  [...caption.matchAll(/\(([^()]{1,24})\)/g)].flatMap((m) => m[1]!.split(/[\s/]+/));

function dateCands(index: DocIndex, query: Query): TypedCandidate[] {
  const all = dateCandidates(index);
  const isos = all.map((c) => c.value.iso).sort();
  const first = isos[0];
  const last = isos[isos.length - 1];
  return all.map((c) => ({
    source: 'typed' as const,
    at: c.at,
    value: c.value.iso,
    text: c.text,
    traits: {
      rangeMatch: query.rangeEnd && c.value.role === query.rangeEnd ? 1 : 0,
      rangeMismatch: query.rangeEnd && c.value.role !== 'single' && c.value.role !== query.rangeEnd ? 1 : 0,
      // One end of a period, asked or not: a report's "year ended" date is not the day it was issued.
      rangeBound: c.value.role !== 'single' ? 1 : 0,
      earliest: c.value.iso === first ? (query.rangeEnd === 'end' ? -1 : 1) : 0,
      latest: c.value.iso === last ? (query.rangeEnd === 'start' ? -1 : 1) : 0,
    },
  }));
}

// ---------- categories ----------

/** Currency signs name their ISO code: general typographic knowledge, like a lexicon. */
const SIGN_OF: Record<string, string[]> = {
  USD: ['$', 'US$', 'dollar', 'dollars'],
  EUR: ['€', 'euro', 'euros'],
  GBP: ['£', 'pound sterling', 'pounds sterling'],
  JPY: ['¥', 'yen'],
  INR: ['₹', 'Rs', 'Rs.', 'rupees'],
  CHF: ['Fr.', 'Swiss francs'],
  PLN: ['zł', 'złoty'],
};

/** Mentions of each configured category (and of the signs that stand for it). */
function categoryCands(index: DocIndex, categories: string[]): TypedCandidate[] {
  const usable = categories.filter((c) => c.trim().length > 0);
  if (usable.length === 0) return [];
  const forms = new Map<string, string>();
  for (const c of usable) {
    forms.set(c.trim().toLowerCase().replace(/\s+/g, ' '), c);
    for (const sign of SIGN_OF[c.trim().toUpperCase()] ?? []) forms.set(sign.toLowerCase(), c);
  }
  // Longest first, so "West Virginia" is not read as "Virginia".
  const sorted = [...forms.keys()].sort((a, b) => b.length - a.length);
  const re = new RegExp(
    `(?<![\\p{L}\\p{N}])(?:${sorted.map((f) => escapeRegex(f).replace(/\\?\s+/g, '\\s+')).join('|')})(?![\\p{L}])`,
    'giu',
  );
  const verbatim = scan(index, re, (m) => forms.get(m[0].toLowerCase().replace(/\s+/g, ' ')) ?? null);
  const cands: (Candidate<string> & { share?: number })[] = [
    ...verbatim,
    ...describedCategories(index, usable, verbatim),
  ];
  const counts = new Map<string, number>();
  for (const c of cands) counts.set(c.value, (counts.get(c.value) ?? 0) + 1);
  const marks = cands.map((c) => boxMark(index, c.at));
  // An option list with one box ticked: the other options on that page are not chosen.
  const tickedPages = new Set(cands.filter((_, i) => marks[i] === 'ticked').map((c) => c.at.page));
  return cands.map((c, i) => ({
    source: 'category' as const,
    at: c.at,
    value: c.value,
    text: c.text,
    traits: {
      count: clip((counts.get(c.value) ?? 0) / 5),
      isMoney: c.text.length <= 3 ? 1 : 0,
      ticked: marks[i] === 'ticked' ? 1 : 0,
      unticked: marks[i] === 'empty' || (marks[i] !== 'ticked' && tickedPages.has(c.at.page)) ? 1 : 0,
      described: c.share === undefined ? 0 : 1,
      partial: c.share === undefined ? 0 : 1 - c.share,
    },
  }));
}

/**
 * A category a passage describes without naming it: "Notice of termination of agreement" is a
 * "Termination notice", "we are delighted to offer you the position" a "Job offer". Its words
 * (or their lexicon synonyms and derived forms) in one passage, most of them for a category of
 * several words; passages that name a category verbatim are left to that mention.
 */
function describedCategories(
  index: DocIndex,
  categories: string[],
  verbatim: readonly Candidate<string>[],
): (Candidate<string> & { share: number })[] {
  const named = new Set(verbatim.map((c) => c.at.unit.id));
  const wanted = categories.map((c) => {
    const stems = [...new Set(contentStems(c))];
    return {
      category: c,
      forms: stems.map((s) => new Set([s, ...relatedStems(s), ...derivedStems(s)])),
      need: stems.length <= 2 ? stems.length : Math.ceil((2 * stems.length) / 3),
    };
  });
  const stemsOf = categories.map((c) => [...new Set(contentStems(c))]);
  // Stem -> the (category, category word) pairs it stands for: one pass over each passage.
  const byStem = new Map<string, [number, number][]>();
  wanted.forEach((w, ci) => {
    w.forms.forEach((forms, fi) => {
      for (const f of forms) byStem.set(f, [...(byStem.get(f) ?? []), [ci, fi]]);
    });
  });
  const out: (Candidate<string> & { share: number })[] = [];
  for (const unit of index.units) {
    if (named.has(unit.id) || unit.stems.length === 0 || unit.stems.length > 60) continue;
    // Per category touched, where each of its words is first found (-1: not found).
    const found = new Map<number, number[]>();
    unit.stems.forEach((st, k) => {
      for (const [ci, fi] of byStem.get(st) ?? []) {
        const at = found.get(ci) ?? new Array<number>(wanted[ci]!.forms.length).fill(-1);
        found.set(ci, at);
        if (at[fi]! < 0) at[fi] = unit.stemAt[k]!;
      }
    });
    for (const [ci, at] of found) {
      const hits = at.filter((k) => k >= 0);
      const w = wanted[ci]!;
      // A short line naming the one word that tells a category of two from the others ("VISA
      // CREDIT ****0851" among cash, credit card, debit card, gift card) describes it.
      const onlyOurs = (fi: number) => (byStem.get(stemsOf[ci]![fi]!) ?? []).every(([cj]) => cj === ci);
      const telling =
        hits.length === 1 &&
        at.length === 2 &&
        unit.stems.length <= 4 &&
        onlyOurs(at.findIndex((k) => k >= 0));
      if (hits.length === 0 || (hits.length < w.need && !telling)) continue;
      const from = Math.min(...hits);
      const to = Math.max(...hits);
      const text = wordsOf(index, unit)
        .slice(from, to + 1)
        .join(' ');
      out.push({ at: located(unit, from, to), value: w.category, text, share: hits.length / at.length });
    }
  }
  return out;
}

const TICK = /^(?:\[?[xX✓✔✗✘☒☑■●◉]\]?|\(\s*[xX✓✔]\s*\))$/u;
const EMPTY_BOX = /^(?:\[\s*\]?|\]|☐|□|○|◯|\(\s*\))$/u;

/** The check box printed just before an option: ticked ("[X]", "☒", a bare "X"), empty ("[ ]", "☐") or none. */
function boxMark(index: DocIndex, at: Located): 'ticked' | 'empty' | 'none' {
  if (at.from === 0) return 'none';
  const words = index.doc.pages[at.page]!.words;
  const before = words[at.unit.words[at.from - 1]!]!.text;
  if (TICK.test(before)) return 'ticked';
  if (EMPTY_BOX.test(before)) return 'empty';
  return 'none';
}

// ---------- lists ----------

/** An item marker in running text: "(a) ", "(ii) ", "2) ". */
export const MARKER = /(?:^|\s)\(?(?:[a-z]|[ivx]{1,4}|\d{1,2})\)\s/;

const SERIES = 'marked:';

/** The passage whose sentence opens a counted-out series: what its entries are about. */
export function seriesLead(c: TypedCandidate): number | undefined {
  return c.series === undefined ? undefined : Number(c.series.slice(SERIES.length));
}

/**
 * Sentences that count out entries ("shall not (i) …, (ii) …"), the most about the question first,
 * then the rest in the document's order: "What may the tenant not do?" shares no word with
 * "Lessee shall not (i) store …", and its entries are still the answer.
 */
function countedOut(index: DocIndex, scores: Float64Array): Passage[] {
  const marked = index.passages.filter((u) => u.kind === 'sentence' && MARKER.test(u.text));
  const score = (u: Passage) => scores[u.id] ?? 0;
  return marked
    .map((u, i) => ({ u, i }))
    .sort((a, b) => score(b.u) - score(a.u) || a.i - b.i)
    .slice(0, 30)
    .map(({ u }) => u);
}

/** List items: enumerations in prose, then every text candidate (each item is scored alone). */
function listCands(index: DocIndex, query: Query, scores: Float64Array): TypedCandidate[] {
  const out: TypedCandidate[] = [];
  // The passages most about the question, and the document's opening, where it names its subjects.
  // Sentences that count out their items ("(a) …; (b) …") further down, as their items read as a list.
  const passages = [
    ...topPassages(index, scores, 8, ['sentence', 'line']).map((s) => s.passage),
    ...index.passages.filter((u) => u.page === 0 && u.kind !== 'segment').slice(0, 12),
    ...countedOut(index, scores),
  ];
  const seen = new Set<number>();
  const item = (passage: Passage, text: string, series?: string) => {
    const at = findWords(wordsOf(index, passage), text);
    if (at)
      out.push({
        source: 'item',
        at: located(passage, at[0], at[1]),
        value: text,
        text,
        traits: textTraits(text),
        ...(series ? { series } : {}),
      });
    return at !== null;
  };
  for (const passage of passages) {
    if (seen.has(passage.id)) continue;
    seen.add(passage.id);
    for (const text of enumerateItems(passage.text)) item(passage, text);
    // A caption over its entries in one line ("Modules completed: A, B, C") is one series.
    for (const text of captionedSeries(passage.text)) item(passage, text, `${SERIES}${passage.id}`);
    if (MARKER.test(passage.text)) {
      // Counted items end with semicolons, which end sentences here: read on to the last one.
      const from = index.units.indexOf(passage);
      const window = index.units.slice(from, from + 12).filter((u) => u.page - passage.page <= 1);
      const series = `${SERIES}${passage.id}`;
      for (const text of markedItems(window.map((u) => u.text).join(' ')))
        window.some((u) => item(u, text, series));
    }
    for (const name of nameRuns(index, passage)) {
      if (name.traits.orgSuffix || name.traits.nameShape === 1) out.push(name);
    }
  }
  // Table columns and bulleted lines are cells; every cell is a candidate item.
  for (const c of textCandidates(index, query, scores)) if (c.source !== 'sentence') out.push(c);
  return dedupe(out);
}

/** Word positions of `item` in `words`, matching on letters and digits only. */
function findWords(words: string[], item: string): [number, number] | null {
  const norm = (s: string) => s.toLowerCase().replace(/[^\p{L}\p{N}]+/gu, '');
  const target = norm(item);
  for (let a = 0; a < words.length; a++) {
    let acc = '';
    for (let b = a; b < words.length && acc.length < target.length; b++) {
      acc += norm(words[b]!);
      if (acc === target) return [a, b];
      if (!target.startsWith(acc)) break;
    }
  }
  return null;
}

// ---------- yes/no ----------

/** Clauses a yes/no answer can rest on: every sentence, cell and form line. */
function clauseCands(index: DocIndex, query: Query, scores: Float64Array): TypedCandidate[] {
  const out: TypedCandidate[] = [];
  const seen = new Set<number>();
  // Prompt words as written (not stemmed), to spot them inside other words ("unpaid", "non-refundable").
  const promptWords = (query.prompt.toLowerCase().match(/\p{L}{4,}/gu) ?? []).filter((w) =>
    query.weights.has(stem(w)),
  );
  // The opposites of the question's own words ("decrease" for "Did revenue increase?").
  const opposites = query.terms.map((t) => antonymStems(t).filter((a) => !query.terms.includes(a)));
  const traitsOf = (text: string): Partial<Record<Trait, number>> => {
    const lower = text.toLowerCase();
    // A clause saying the opposite of a word asked, and never the word itself, denies it:
    // "Total revenue decreased by 4.2%" answers "Did total revenue increase?" with a no.
    const said = literalStems(text);
    const opposed = query.terms.some(
      (t, i) => opposites[i]!.length > 0 && !said.includes(t) && opposites[i]!.some((a) => said.includes(a)),
    );
    // An option left empty says the other one: "[ ] Yes" is a no where its ticked "[X] No" stands
    // apart (another cell of the line).
    const ticked = /(?:\[\s*[xX✓✔]\s*\]|☒|☑|■|(?:^|\s)X)\s+(yes|no|true|false)\b/i.exec(text);
    const empties = ticked ? [] : [...text.matchAll(/(?:\[\s*\]|☐|□)\s+(yes|no|true|false)\b/gi)];
    const empty = empties.length === 1 ? empties[0]! : null;
    const checked = ticked ?? (empty ? [empty[0], /yes|true/i.test(empty[1]!) ? 'no' : 'yes'] : null);
    const inside = promptWords.some((w) =>
      new RegExp(`\\p{L}${w}|${w.slice(0, -1)}\\p{L}{2,}`, 'u').test(lower),
    );
    // Negated by a prefix only where the clause never says the word plainly: "shall automatically
    // renew ... unless either party gives notice of non-renewal" asserts the renewal.
    const negPrefix = promptWords.some(
      (w) =>
        new RegExp(`\\b(?:un|non-?|in|dis)${w}`, 'u').test(lower) &&
        !new RegExp(`(?<!\\p{L})(?<!non-)${w}`, 'u').test(lower),
    );
    // Beside a box, "No" is an option to tick, not a negation of the clause.
    const written = checked ? text.replace(/\b(?:yes|no|true|false)\b/gi, ' ') : text;
    return {
      negation: ((NEGATION.test(written) || negPrefix) !== opposed) !== query.negated ? 1 : 0,
      checkedYes: checked && /yes|true/i.test(checked[1]!) ? 1 : 0,
      checkedNo: checked && /no|false/i.test(checked[1]!) ? 1 : 0,
      long: clip(text.split(/\s+/).length / 40),
      valueFound: inside ? 1 : 0,
    };
  };
  // A question asserts nothing: "Is this a foreign entity?" printed on a form is the label of
  // the boxes that answer it, never itself a yes.
  const asks = (text: string) => /\?\s*$/.test(text);
  const short = index.passages.filter((p) => p.words.length <= 15);
  for (const p of [
    ...topPassages(index, scores, 30, ['sentence', 'segment', 'line']).map((s) => s.passage),
    ...short,
  ]) {
    if (seen.has(p.id) || out.length >= 250) continue;
    seen.add(p.id);
    if (asks(p.text)) continue;
    const traits = traitsOf(p.text);
    // A caption with its boxes on the line under it ("Urgent request:" over "X Yes [ ] No") is
    // answered by the tick there, as one written beside it is.
    const boxes = !traits.checkedYes && !traits.checkedNo ? boxesUnder(index, p) : null;
    if (boxes) {
      const ticked = traitsOf(boxes);
      traits.checkedYes = ticked.checkedYes ?? 0;
      traits.checkedNo = ticked.checkedNo ?? 0;
    }
    out.push({ source: 'clause', at: located(p, 0, p.words.length - 1), value: null, text: p.text, traits });
  }
  // A printed line inside a longer unit ("Status: UNPAID" among header fields read as one
  // run of text) is a clause of its own when it speaks of the question.
  const promptStems = [...query.weights].filter(([, w]) => w >= 0.8).map(([k]) => k);
  for (const line of lineCandidates(index)) {
    if (out.length >= 300) break;
    if (line.at.from === 0 && line.at.to === line.at.unit.words.length - 1) continue;
    if (asks(line.text)) continue;
    const lower = line.text.toLowerCase();
    const stems = new Set(line.text.split(/[^\p{L}\p{N}]+/u).map((w) => stem(w.toLowerCase())));
    const speaks =
      promptStems.some((k) => stems.has(k)) || promptWords.some((w) => lower.includes(w.slice(0, -1)));
    if (!speaks) continue;
    out.push({ source: 'clause', at: line.at, value: null, text: line.text, traits: traitsOf(line.text) });
  }
  return ownBoxes(index, query, out);
}

/** The yes/no options on the line right under a caption ending in a colon, if that is what it holds. */
function boxesUnder(index: DocIndex, p: Passage): string | null {
  if (!/:\s*$/.test(p.text)) return null;
  const layout = index.layouts[p.page]!;
  const li = lineOfWord(index, p.page)[p.words[p.words.length - 1]!]!;
  const line = layout.lines[li];
  const next = layout.lines[li + 1];
  if (!line || !next || next.words.length > 8) return null;
  const H = layout.page.height || 792;
  if ((next.box[1] - line.box[3]) * H > 1.5 * line.height) return null;
  const text = next.words.map((w) => layout.page.words[w]!.text).join(' ');
  return /\b(?:yes|no)\b/i.test(text) ? text : null;
}

/**
 * A tick answers the question it sits beside or under: ticked boxes captioned by another
 * question of the form are no answer, when some boxes are captioned by the one asked.
 */
function ownBoxes(index: DocIndex, query: Query, cands: TypedCandidate[]): TypedCandidate[] {
  const boxed = cands.filter((c) => c.traits.checkedYes || c.traits.checkedNo);
  if (boxed.length < 2) return cands;
  const captionScore = new Map(
    boxed.map((c) => {
      const near = nearbyOf(index, c.at);
      return [c, Math.max(labelScore(near.left, query), labelScore(near.above, query))] as const;
    }),
  );
  const best = Math.max(...captionScore.values());
  if (best <= 0) return cands;
  return cands.filter((c) => (captionScore.get(c) ?? best) >= best * 0.9);
}

// ---------- pictures ----------

/** A label this close above a picture is its caption ("Photograph" over the photo box). */
const TIGHT_LABEL = 0.012;

type PlacedWord = { w: { box: Box }; i: number };

/** Gap between the picture's bottom (or top) edge and the nearest of the words. */
const gapOf = (words: PlacedWord[], edge: (b: Box) => number) =>
  words.length === 0 ? Number.POSITIVE_INFINITY : Math.min(...words.map(({ w }) => edge(w.box)));

/** The words on the line nearest the picture: a caption is one line, not the field after it. */
function nearestLine(words: PlacedWord[], edge: (b: Box) => number): PlacedWord[] {
  const gap = gapOf(words, edge);
  return words.filter(({ w }) => edge(w.box) - gap < (w.box[3] - w.box[1]) * 0.5);
}

/**
 * Words near a picture: its caption below, else a heading above, else words beside it.
 * Words just under the picture's edge beat words further down that merely overlap it
 * ("Authorized signature" set left of the signature, its signer's name below), and a label
 * tight above beats a field further below (a form's "Photograph" box over the applicant's name).
 */
function captionOf(index: DocIndex, pageIndex: number, box: Box): { text: string; at: Located | null } {
  const page = index.doc.pages[pageIndex]!;
  const words: PlacedWord[] = page.words.map((w, i) => ({ w, i }));
  const within = (b: Box, margin: number) => b[0] < box[2] + margin && b[2] > box[0] - margin;
  const belowGap = (b: Box) => b[1] - box[3];
  const aboveGap = (b: Box) => box[1] - b[3];
  const under = words.filter(({ w }) => w.box[1] >= box[3]);
  const overlapping = under.filter(({ w }) => belowGap(w.box) < 0.04 && within(w.box, 0.05)).slice(0, 20);
  const close = under.filter(({ w }) => belowGap(w.box) <= 0.02);
  const beside = close.some(({ w }) => within(w.box, 0.3))
    ? close.filter(({ w }) => within(w.box, 0.3))
    : close;
  let ids: PlacedWord[] =
    beside.length > 0 && gapOf(beside, belowGap) < gapOf(overlapping, belowGap) - 0.005
      ? nearestLine(beside, belowGap).slice(0, 20)
      : overlapping;
  const gapBelow = gapOf(ids, belowGap);
  const above = words.filter(
    ({ w }) => w.box[3] <= box[1] + 0.005 && aboveGap(w.box) < 0.04 && within(w.box, 0.05),
  );
  const gapAbove = gapOf(above, aboveGap);
  if (above.length > 0 && (ids.length === 0 || (gapAbove <= TIGHT_LABEL && gapAbove < gapBelow - 0.002))) {
    ids = (ids.length === 0 ? above : nearestLine(above, aboveGap)).slice(-20);
  }
  if (ids.length === 0) return { text: '', at: null };
  const order = ids.map(({ i }) => i).sort((a, b) => a - b);
  const unit = index.units.find((u) => u.page === pageIndex && u.words.includes(order[0]!));
  if (!unit) return { text: order.map((i) => page.words[i]!.text).join(' '), at: null };
  const positions = order.map((i) => unit.words.indexOf(i)).filter((k) => k >= 0);
  const from = Math.min(...positions);
  const to = Math.max(...positions);
  const at = located(unit, from, to);
  return {
    text: wordsOf(index, unit)
      .slice(from, to + 1)
      .join(' '),
    at,
  };
}

function pictureCands(index: DocIndex): TypedCandidate[] {
  const out: TypedCandidate[] = [];
  index.doc.pages.forEach((page, pi) => {
    for (const img of page.images) {
      const caption = captionOf(index, pi, img.box);
      const unit = caption.at?.unit ?? index.units.find((u) => u.page === pi) ?? index.units[0];
      if (!unit) continue;
      out.push({
        source: 'picture',
        at: caption.at ?? located(unit, 0, 0),
        value: null,
        text: caption.text,
        traits: {},
        picture: { page: page.page, box: img.box, caption: caption.text, captionAt: caption.at },
      });
    }
  });
  return out;
}

/**
 * A caption that numbers its picture ("Figure 2:", "Chart 3.", "Exhibit 4") marks an
 * illustration of the text, not a mark made on the document (signature, seal, stamp).
 */
export const NUMBERED_CAPTION =
  /^\s*(?:fig(?:ure)?|chart|table|exhibit|graph|diagram|plate|abb(?:ildung)?|tab(?:elle)?)\.?\s*\d+/i;
/** Words a question uses for an illustration. */
const ILLUSTRATION =
  /\b(?:fig(?:ure)?s?|charts?|graphs?|graphics?|diagrams?|plots?|tables?|exhibits?|illustrations?|images?|pictures?|visuals?)\b/i;

/** A numbered figure asked neither as a figure nor by its own subject ("Show the signature" is no chart). */
function isFigureAside(c: TypedCandidate, query: Query): boolean {
  const caption = c.picture?.caption ?? '';
  return (
    NUMBERED_CAPTION.test(caption) && !ILLUSTRATION.test(query.prompt) && labelScore(caption, query) === 0
  );
}

/** Every candidate answer of one document for one column, by the column's output type. */
/** Questions after a region: a state, a country, a city, the law that governs. */
const REGION_ONLY =
  /\b(?:states?|countr(?:y|ies)|provinces?|count(?:y|ies)|cit(?:y|ies)|nations?|governing law|laws? of)\b/i;
const ADDRESS_WORD = /\b(?:address(?:es)?|street|located|location|where|premises|property)\b/i;
/** A text that opens with a street address ("3308 Meadow Street"). */
const STREET_FIRST = new RegExp(
  `^\\d{1,5}[A-Za-z]?,?\\s+(?:[\\p{L}.'-]+\\s+){0,3}(?:${STREET_WORDS})\\b`,
  'iu',
);

export function typedCandidates(
  index: DocIndex,
  query: Query,
  scores: Float64Array,
  type: OutputType,
  config: ColumnConfig | null,
): TypedCandidate[] {
  switch (groupOf(type)) {
    case 'text': {
      const found = textCandidates(index, query, scores);
      // A state, a country or the law that governs is asked: a street address is none of them.
      const regionOnly = REGION_ONLY.test(query.prompt) && !ADDRESS_WORD.test(query.prompt);
      return markDefined(index, regionOnly ? found.filter((c) => !STREET_FIRST.test(c.text)) : found);
    }
    case 'number':
      return numberCands(index, query);
    case 'date':
      return dateCands(index, query);
    case 'categorical':
      return categoryCands(index, config?.categories ?? []);
    case 'list':
      return markDefined(index, listCands(index, query, scores));
    case 'boolean':
      return clauseCands(index, query, scores);
    case 'image':
      return pictureCands(index).filter((c) => !isFigureAside(c, query));
  }
}
