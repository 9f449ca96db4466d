import { assertedStems, contentStems, literalStems, stem } from '../text/tokenize.ts';
import type { EnginePage } from '../types.ts';
import { antonymStems } from './antonyms.ts';
import { type Associations, associationMean, associationScore, associationSum } from './associations.ts';
import type { DocIndex } from './doc-index.ts';
import { MARKER_WORD, opensLineMarked } from './markers.ts';
import { filledColumnsOf, filledRowsOf, lineOfWord, nearbyOf } from './nearby.ts';
import { placeSide } from './place-side.ts';
import { asksTitle, type Phase, type Query, VALUE_KINDS } from './query.ts';
import {
  type Evidence,
  evidenceFor,
  type Located,
  labelScore,
  maxScore,
  scorePassages,
} from './retrieval.ts';
import { captionSide, namesCounterpart, type Side } from './roles.ts';
import { relatedStems } from './synonyms.ts';
import {
  type Group,
  MARKER,
  NUMBERED_CAPTION,
  SOURCES,
  seriesLead,
  type Trait,
  type TypedCandidate,
} from './typed-candidates.ts';

/**
 * What the scorer sees of one candidate: how the prompt matches the candidate's label,
 * neighbourhood and sentence (exact stems, and lexicon relatives), where it sits on the page
 * and in the document, how it looks (size, capitals) and whether its shape fits the question.
 * All measurements, no weights: the weights are learned (model.ts, `npm run train`).
 */
export interface ScoringContext {
  index: DocIndex;
  query: Query;
  /** The same query without lexicon relatives, to tell exact wording from related words. */
  exact: Query;
  scores: Float64Array;
  exactScores: Float64Array;
  best: number;
  exactBest: number;
  /** Median word height per page, for relative font size. */
  medianHeight: number[];
  pageCount: number;
  evidence: Map<string, [Evidence, Evidence]>;
  /** Lexicon relatives of the words the prompt rules out. */
  excludedRelated: Set<string>;
  /** What the answer includes or leaves out, with its lexicon relatives ("tax", "vat" for "including tax"). */
  parts: Set<string>;
  /** Antonyms of the prompt's words ("close" and "shut" for "opening"), none of the prompt's own. */
  opposed: Set<string>;
  /** The other party of the prompt's role words, as written: "insured" for "insurer", "lessee" for "lessor". */
  counterparts: ReadonlySet<string>;
  /** The best exact label score of any short unit: a field's label, whether or not a value goes with it. */
  bestLineLabel: number;
  /** Per-question figures memoised by name (a column header's label score). */
  memo: Map<string, number>;
  /** Per value (valueKey), the caption sides its occurrences sit under: bit 1 issuing, bit 2 receiving. */
  valueSides?: Map<string, number>;
  /**
   * A short line a value fills alone counts no relevance by its own words (evidenceFor): set for
   * questions answered by values, not for yes/no, whose clause ("PAID") is its own evidence.
   */
  skipEcho: boolean;
}

/**
 * The opposites of what a prompt asks for: the lexicon's antonyms of its own words ("close" for
 * "opening", "last" for "first name"), none the prompt uses or relates to. Antonyms of synonyms
 * reach too far ("issued" → "give").
 */
function opposedStems(query: Query): Set<string> {
  const own = new Set(query.terms.flatMap((t) => [t, ...relatedStems(t)]));
  const out = new Set<string>();
  for (const t of query.terms) {
    for (const a of antonymStems(t)) if (!own.has(a)) out.add(a);
  }
  return out;
}

export function scoringContext(index: DocIndex, query: Query, skipEcho: boolean): ScoringContext {
  const exactWeights = new Map([...query.weights].filter(([, w]) => w >= 0.6));
  const exact: Query = { ...query, weights: exactWeights };
  const scores = scorePassages(index, query);
  const exactScores = scorePassages(index, exact);
  const medianHeight = index.doc.pages.map((p) => {
    const hs = p.words.map((w) => w.box[3] - w.box[1]).sort((a, b) => a - b);
    return hs[Math.floor(hs.length / 2)] || 0.01;
  });
  return {
    index,
    query,
    exact,
    scores,
    exactScores,
    best: maxScore(scores),
    exactBest: maxScore(exactScores),
    medianHeight,
    pageCount: index.doc.pages.length,
    evidence: new Map(),
    excludedRelated: new Set([...query.excluded].flatMap((s) => relatedStems(s))),
    parts: new Set([...query.qualifiers].flatMap((s) => [s, ...relatedStems(s)])),
    opposed: opposedStems(query),
    counterparts: query.counterparts,
    memo: new Map(),
    skipEcho,
    bestLineLabel: index.passages.reduce(
      (m, p) => (p.words.length <= 6 ? Math.max(m, labelScore(p.text, exact)) : m),
      0,
    ),
  };
}

const TRAITS: Trait[] = [
  'addressShape',
  'groupNoun',
  'currency',
  'decimals',
  'percent',
  'suspicious',
  'largest',
  'negative',
  'zero',
  'converted',
  'rangeMatch',
  'rangeMismatch',
  'rangeBound',
  'earliest',
  'latest',
  'idShape',
  'nameShape',
  'orgSuffix',
  'hasDigits',
  'endsLikeLabel',
  'isDate',
  'isMoney',
  'isDuration',
  'long',
  'count',
  'negation',
  'checkedYes',
  'checkedNo',
  'valueFound',
  'defined',
  'prose',
  'ticked',
  'unticked',
  'lexicon',
  'writing',
  'described',
  'partial',
  'isEmail',
  'isPhone',
  'isWeb',
];
/**
 * Features read against the other candidates of the same question: how far each falls short of
 * the best candidate's, so a pointwise scorer still sees the competition.
 */
const RELATIVE = [
  'rel',
  'relExact',
  'label',
  'labelExact',
  'prox',
  'geoLeft',
  'geoAbove',
  'geoLeftExact',
  'geoAboveExact',
  'geoHeading',
  'assocLeft',
  'assocAbove',
  'assocMax',
  'assocHeading',
] as const;
const RELATIVE_MAX = ['labelExact', 'geoLeftExact', 'geoAboveExact', 'assocMax'] as const;
/** Questions asking for an address or where something is ("the street address", "located"). */
const ADDRESS_ASKED = /\b(?:address(?:es)?|street|located|location)\b/i;
/** Questions asking for a region: a state, a country, a city. */
const REGION_ASKED = /\b(?:states?|countr(?:y|ies)|provinces?|count(?:y|ies)|cit(?:y|ies)|nations?)\b/i;
const KINDS = ['duration', 'date', 'money', 'identifier', 'entity', 'place', 'span'] as const;
/**
 * The five aspects of a picture's place (pictureWords): each is an association feature of its
 * own, so "logo" → top is not lost in a sum clipped with "logo" → first page.
 */
const PLACE_ASPECTS = ['vertical', 'horizontal', 'size', 'page', 'caption'] as const;

const PERSON_ASKED = /\b(?:person|persons|people|individual|individuals)\b/i;
const COMPANY_TOO = /\b(?:compan(?:y|ies)|organi[sz]ations?|entit(?:y|ies)|part(?:y|ies))\b/i;

export const FEATURES: readonly string[] = [
  'rel',
  'label',
  'prox',
  'relExact',
  'labelExact',
  'proxExact',
  'relRaw',
  'pagePos',
  'firstPage',
  'lastPage',
  'yTop',
  'xLeft',
  'centered',
  'fontRel',
  'bigFont',
  'caps',
  'nWords',
  'promptInValue',
  'repeat',
  'sentenceUnit',
  'unitShare',
  'seriesRel',
  'midSentence',
  'labelXcell',
  'labelXafter',
  'labelXsentence',
  'relXprox',
  'labelLeft',
  'labelAbove',
  'labelTable',
  'labelPrefix',
  'labelLeftExact',
  'labelAboveExact',
  'labelPrefixExact',
  'otherLabel',
  'excludedLabel',
  'opposedLabel',
  'opposedColumn',
  'rowFilledAsked',
  'rowFilledOpposed',
  'geoLeft',
  'geoAbove',
  'geoLeftExact',
  'geoAboveExact',
  'geoAboveGap',
  'geoHeading',
  'geoHeadingExact',
  'geoSection',
  'geoSectionExact',
  'assocSection',
  'geoColumn',
  'geoRow',
  'geoRowXColumn',
  'assocHeading',
  'assocPlace',
  'assocLeftMean',
  'assocAboveMean',
  'assocHeadingMean',
  'qWho*orgSuffix',
  'qWho*personShape',
  'qCompany*orgSuffix',
  'qCompany*personShape',
  'qCompany*groupNoun',
  'qTitle*writing',
  'qTitle*fontRel',
  'qWho*groupNoun',
  'qThing*personShape',
  'qPerson*orgSuffix',
  'qPerson*personShape',
  'personShape',
  'assocLeft',
  'assocAbove',
  'assocMax',
  'nearColon',
  'soleFit',
  'definedAsked',
  'signBlock',
  'qSign*signBlock',
  'qDeadline',
  'deadlineCue',
  'qDeadline*deadlineCue',
  ...SOURCES.map((s) => `source:${s}`),
  ...TRAITS.map((t) => `trait:${t}`),
  ...KINDS.map((k) => `kind:${k}`),
  'qId*idShape',
  'qId*hasDigits',
  'qEntity*nameShape',
  'qEntity*orgSuffix',
  'qEntity*hasDigits',
  'qPlace*addressShape',
  'qAddress*addressShape',
  'qRegion*addressShape',
  'qPlace*nameShape',
  'qSpan*sentence',
  'itemRow',
  'marked',
  'qMoney*isMoney',
  'qCount*isMoney',
  'qDuration*isDuration',
  'qDate*isDate',
  'qValue*otherKind',
  'qContact*fits',
  'qContact*other',
  'qTail*fits',
  'qTail*masked',
  'picture:captionLabel',
  'picture:captionLabelExact',
  'picture:numbered',
  'picture:area',
  'picture:aspect',
  'picture:top',
  'picture:bottom',
  'picture:onPage',
  'picture:captionOther',
  ...PLACE_ASPECTS.map((a) => `assocPlace:${a}`),
  ...RELATIVE.map((f) => `${f}:gap`),
  ...RELATIVE_MAX.map((f) => `${f}:max`),
  'ownLabel',
  'ownLabelShort',
  'labelUnused',
  'roleAsked',
  'roleSame',
  'roleOther',
  'roleSameElsewhere',
  'roleOtherElsewhere',
  'roleGreeted',
  'placeSame',
  'placeOther',
  'seriesOpposed',
  'assocClause',
  'assocClauseMean',
  'anchorSelf',
  'anchorOther',
  'phaseAgrees',
  'phaseOpposes',
  'contactUnasked',
  'phaseAgreedElsewhere',
  'phaseOpposedElsewhere',
];
const AT: Record<string, number> = Object.fromEntries(FEATURES.map((f, i) => [f, i]));
export const FEATURE_COUNT = FEATURES.length;

/** Words that open a signature block, in the languages documents use most. */
const SIGNING = /\bby\s*:|^\s*by\s*$|\b(?:sign\w*|unterschrift|unterzeichnet|handtekening|ondertekend)\b/i;

/**
 * Whether a candidate sits in a signature block: just under a picture (the signature) in the
 * same column, or under or beside a "By:" / "Signature" caption.
 */
function signatureBlock(page: EnginePage, c: TypedCandidate, nearText: string): number {
  if (SIGNING.test(nearText)) return 1;
  const boxes = c.at.unit.words.slice(c.at.from, c.at.to + 1).map((w) => page.words[w]!.box);
  if (boxes.length === 0) return 0;
  const x0 = Math.min(...boxes.map((b) => b[0]));
  const x1 = Math.max(...boxes.map((b) => b[2]));
  const top = Math.min(...boxes.map((b) => b[1]));
  const h = Math.max(...boxes.map((b) => b[3] - b[1]));
  const under = page.images.some(
    (img) => img.box[3] <= top + h * 0.5 && top - img.box[3] < h * 6 && img.box[0] < x1 && img.box[2] > x0,
  );
  return under ? 1 : 0;
}

/** Words that make the value after them a limit: "by", "until", "due", "no later than", "expires", in the languages documents use most. */
export const DEADLINE_CUE =
  /\b(?:by|until|till|before|due|deadline|expir\w*|expiry|exp|later than|through|thru|bis|tot|avant|jusqu\w*|uiterlijk|spätestens)\b/i;

/** How captions and the words before a value name one end of a span ("Period from", "To", "brought forward"). */
const PHASE_WRITTEN: readonly [Phase, RegExp][] = [
  [
    'start',
    /\b(?:from|since|start(?:s|ing)?|begin(?:s|ning)?|commenc\w*|opening|initial|brought forward|b\/f|previous|prior|inception)\b/i,
  ],
  [
    'end',
    /\b(?:to|until|till|through|thru|end(?:s|ed|ing)?|closing|expir\w*|expiry|final|carried forward|c\/f|new balance)\b|^\s*[-\u2013\u2014]\s*$/i,
  ],
];
const phaseIn = (text: string): Phase | null => {
  const hits = PHASE_WRITTEN.filter(([, re]) => re.test(text));
  return hits.length === 1 ? hits[0]![0] : null;
};
/** The end of a span a value is written as: by the nearest words before it, else its caption. */
function writtenPhase(before: string[], captions: string[]): Phase | null {
  for (const w of before.slice(-3).reverse()) {
    // Another value between ("TRANSFER FROM … -12.00 8,432.34"): its words are its own.
    if (/\d/.test(w)) break;
    const p = phaseIn(w.replace(/[,:;(]+$/, ''));
    if (p) return p;
  }
  for (const t of captions) {
    // A caption read across a row ("TRANSFER FROM  -362.05") names only what follows its last value.
    const words = t.trim().split(/\s+/);
    const own = words.slice(words.findLastIndex((w) => /\d/.test(w)) + 1);
    const p = own.length && words.length <= 5 ? phaseIn(own.join(' ')) : null;
    if (p) return p;
  }
  return null;
}

/** The end of a span a (non-picture) candidate is written as: "Period from 1 May" is a start, "To 31 May" an end. */
export function phaseWrittenOf(ctx: ScoringContext, c: TypedCandidate): Phase | null {
  const [e] = evidencePair(ctx, c);
  const page = ctx.index.doc.pages[c.at.page]!;
  const near = nearbyOf(ctx.index, c.at);
  const before = c.at.unit.words.slice(Math.max(0, c.at.from - 4), c.at.from);
  return writtenPhase(
    before.map((w) => page.words[w]?.text ?? ''),
    [e.nearText, near.left, near.above, near.columnHead, near.rowHead],
  );
}

/** The end of a span a caption-like prompt names by its own words ("Period from", "Valid to"). */
export const phaseNamed = phaseIn;

/**
 * A caption naming only a part of what is asked: "Tax" beside the tax when the total including
 * tax is asked holds that part, not the total; so do "Total tax" and "Tax amount", and "Total
 * deductions" when the earnings before deductions are asked.
 */
function namesOnlyPart(parts: Set<string>, text: string): boolean {
  if (!parts.size) return false;
  const stems = literalStems(text).filter((s) => !/\d/.test(s));
  return stems.some((s) => parts.has(s)) && stems.every((s) => parts.has(s) || AGGREGATE_STEMS.has(s));
}
/** Words that add up whatever they name: "total tax" is the tax. */
const AGGREGATE_STEMS = new Set(['total', 'sum', 'amount']);

/**
 * Whether another row of the table fills a column this one leaves empty that answers better,
 * while this one fills a column that row leaves empty.
 */
function alternativeAnswersBetter(
  ctx: ScoringContext,
  index: DocIndex,
  page: number,
  line: number,
  own: string[],
): boolean {
  const score = (h: string) => {
    const key = `filled-head:${h}`;
    let v = ctx.memo.get(key);
    if (v === undefined) {
      v = labelScore(h, ctx.query);
      ctx.memo.set(key, v);
    }
    return v;
  };
  const mine = Math.max(...own.map(score));
  const rows = filledRowsOf(index, page);
  // Rows of one table: the unbroken run of figure rows around this one.
  for (const dir of [-1, 1]) {
    for (let l = line + dir; rows.has(l); l += dir) {
      const heads = rows.get(l)!;
      if (!heads.some((h) => !own.includes(h) && score(h) > mine + 1e-9)) continue;
      if (own.some((h) => !heads.includes(h))) return true;
    }
  }
  return false;
}

/** Stems of the units a length of time is written in. */
const TIME_UNIT = /^(?:day|week|month|year)s?$/;
const clip = (x: number, lo = 0, hi = 1) => Math.max(lo, Math.min(hi, x));

/** How many candidates of the document share each value (agreement between places). */
export function valueCounts(cands: readonly TypedCandidate[]): Map<string, number> {
  const counts = new Map<string, number>();
  for (const c of cands) {
    const k = valueKey(c);
    counts.set(k, (counts.get(k) ?? 0) + 1);
  }
  return counts;
}

export const valueKey = (c: TypedCandidate) =>
  typeof c.value === 'string'
    ? c.value
        .toUpperCase()
        .replace(/[^\p{L}\p{N}]+/gu, ' ')
        .trim()
    : JSON.stringify(c.value);

/** Evidence depends only on where a candidate sits: candidates sharing words share it. */
function evidencePair(ctx: ScoringContext, c: TypedCandidate) {
  // A picture's caption is what it is found by.
  const skip = ctx.skipEcho && !c.picture;
  const k = `${c.at.unit.id}:${c.at.from}:${c.at.to}:${skip}`;
  let hit = ctx.evidence.get(k);
  if (!hit) {
    hit = [
      evidenceFor(ctx.index, ctx.query, ctx.scores, ctx.best, c.at, skip),
      evidenceFor(ctx.index, ctx.exact, ctx.exactScores, ctx.exactBest, c.at, skip),
    ];
    ctx.evidence.set(k, hit);
  }
  return hit;
}

const ASSOC_LEFT = FEATURES.indexOf('assocLeft');
const ASSOC_ABOVE = FEATURES.indexOf('assocAbove');
const ASSOC_MAX = FEATURES.indexOf('assocMax');
const ASSOC_HEADING = FEATURES.indexOf('assocHeading');
const ASSOC_SECTION = FEATURES.indexOf('assocSection');
const ASSOC_PLACE = FEATURES.indexOf('assocPlace');
/** The first of the per-aspect place associations, in pictureWords order. */
const ASSOC_PLACE_ASPECT = FEATURES.indexOf(`assocPlace:${PLACE_ASPECTS[0]}`);
const ASSOC_LEFT_MEAN = FEATURES.indexOf('assocLeftMean');
const ASSOC_ABOVE_MEAN = FEATURES.indexOf('assocAboveMean');
const ASSOC_HEADING_MEAN = FEATURES.indexOf('assocHeadingMean');
const ASSOC_CLAUSE = FEATURES.indexOf('assocClause');
const ASSOC_CLAUSE_MEAN = FEATURES.indexOf('assocClauseMean');

/** How many words either side of a value in running text tell what the value is of. */
const CLAUSE_WINDOW = 8;

/**
 * The words around a value of the asked kind inside its sentence, the value's own left out: "for a
 * period of … following the termination of my employment" says whose period it is, as a label
 * says it in a form. '' for any other candidate.
 */
export function clauseContext(index: DocIndex, query: Query, c: TypedCandidate): string {
  if (c.picture || c.at.unit.kind !== 'sentence' || !fitsKind(query, c)) return '';
  const ids = c.at.unit.words;
  const page = index.doc.pages[c.at.page]!;
  const around = [
    ...ids.slice(Math.max(0, c.at.from - CLAUSE_WINDOW), c.at.from),
    ...ids.slice(c.at.to + 1, c.at.to + 1 + CLAUSE_WINDOW),
  ];
  return around.map((w) => page.words[w]?.text ?? '').join(' ');
}

/** Words that count a length of time from a point: "six months following …", "two years from …". */
const ANCHOR_WORD =
  /^(?:following|after|from|of|since|commencing|beginning|starting|preceding|before|prior)$/i;
/** A length of time is counted from the document's own making: "the date hereof", "the date of signing". */
const SELF_POINT = /^(?:here\w+|this|effective|execution|executed|signing|signature|above|first)$/i;

/** A length of time a notice runs ("thirty (30) days written notice", "60 days' prior notice"). */
export function isNoticePeriod(index: DocIndex, c: { at: Located }): boolean {
  const ids = c.at.unit.words;
  const page = index.doc.pages[c.at.page]!;
  for (let i = c.at.to + 1; i <= c.at.to + 3 && i < ids.length; i++) {
    const w = page.words[ids[i]!]?.text ?? '';
    if (/^notice$/i.test(w.replace(/[^\p{L}]/gu, ''))) return true;
    if (/[,;:.)]$/.test(w)) break;
  }
  return false;
}

export const NOTICE = stem('notice');

/**
 * The point a length of time runs from, as read after it ("… following the termination of my
 * employment"): 'self' when that is the document itself ("the date of this Agreement", "the date
 * hereof") or what the question asks about, 'other' when it is some other event; '' when none is
 * written.
 */
export function anchorOf(
  index: DocIndex,
  c: TypedCandidate,
  asked: (stem: string) => boolean,
): '' | 'self' | 'other' {
  const ids = c.at.unit.words;
  const page = index.doc.pages[c.at.page]!;
  const text = (i: number) => page.words[ids[i]!]?.text ?? '';
  // "thirty (30) days written notice": the length of a notice, the agreement's term only if notice is asked.
  if (isNoticePeriod(index, c)) return asked(NOTICE) ? 'self' : 'other';
  let at = -1;
  for (let i = c.at.to + 1; i <= c.at.to + 3 && i < ids.length; i++) {
    const w = text(i).replace(/[^\p{L}]/gu, '');
    if (ANCHOR_WORD.test(w)) {
      at = i;
      break;
    }
    if (/[,;:.)]$/.test(text(i))) break;
  }
  if (at < 0) return '';
  const point: string[] = [];
  for (let i = at + 1; i < ids.length && point.length < 8; i++) {
    point.push(text(i));
    if (/[,;:.]$/.test(text(i))) break;
  }
  const words = point.map((w) => w.replace(/[^\p{L}]/gu, '')).filter(Boolean);
  if (words.some((w) => SELF_POINT.test(w))) return 'self';
  const stems = contentStems(point.join(' '));
  if (stems.length === 0) return '';
  if (stems.some(asked)) return 'self';
  // An event named alone ("within ten days of receipt", "after delivery") is an event of what the
  // clause is about: "pay each invoice within ten days of receipt" counts the payment period.
  const lone = stems.length === 1 && !words.some((w) => /^of$/i.test(w));
  if (lone) {
    const lead = Array.from({ length: c.at.from }, (_, i) => text(i));
    if (contentStems(lead.join(' ')).some(asked)) return 'self';
  }
  return 'other';
}

/** Associations of clause words live in a table of their own beside the label words' ones. */
export const clauseGroup = (group: string) => `${group}~clause`;

/**
 * Where a picture sits, as words ("placetop placefirstpage placesmall"), so the word associations
 * learn what prompts ask for pictures there ("logo" → top of the first page).
 */
export function pictureWords(index: DocIndex, c: TypedCandidate): string {
  if (!c.picture) return '';
  const b = c.picture.box;
  const n = index.doc.pages.length;
  const area = (b[2] - b[0]) * (b[3] - b[1]);
  // One word per aspect, in PLACE_ASPECTS order.
  const words = [
    b[1] < 0.2 ? 'placetop' : b[1] > 0.6 ? 'placebottom' : 'placemiddle',
    b[0] > 0.5 ? 'placeright' : 'placeleft',
    area < 0.02 ? 'placesmall' : area > 0.1 ? 'placelarge' : 'placemedium',
    c.picture.page === 1 ? 'placefirstpage' : c.picture.page === n ? 'placelastpage' : 'placeinner',
    c.picture.caption ? 'placecaptioned' : 'placebare',
  ];
  return words.join(' ');
}

/** "Licensed To: Acme GmbH" read as one candidate: the caption's side and the value after it. */
const CAPTIONED = /^([^:]{2,40}):\s*(\S.*)$/s;

/**
 * Whom a letter greets ("Dear Dr. Marchbanks,", "Sehr geehrte Frau Weber"): the addressee, the
 * receiving side, though no caption names it. Surnames, memoised per document.
 */
const SALUTATION =
  /\b(?:[Dd]ear|DEAR|[Aa]ttn\.?|[Aa]ttention:?|[Ss]ehr geehrter?|[Gg]eachte|[Cc]her|[Cc]h[èe]re)\s+(?:(?:Mr|Mrs|Ms|Miss|Mx|Dr|Prof|Sir|Madam|Herr|Frau|[Hh]eer|[Mm]evrouw|Monsieur|Madame)\.?\s+)*((?:\p{Lu}[\p{L}'’-]+\s*){1,3})/gu;

/**
 * How much of a table header the question names, word for word: its numbers must all be named
 * ("Week 3" is not named by a question about week 1), so the cell under "Q4" in the row
 * "Online" answers "Online in Q4" and its neighbours do not.
 */
function headerMatch(header: string, prompt: string): number {
  if (!header) return 0;
  const stems = contentStems(header);
  if (stems.length === 0 || stems.length > 8) return 0;
  const asked = new Set(contentStems(prompt));
  let hit = 0;
  for (const s of stems) {
    if (asked.has(s)) hit++;
    else if (/\d/.test(s)) return 0;
  }
  return hit / stems.length;
}

function greetedNames(index: DocIndex): Set<string> {
  const hit = index.memo.get('greeted') as Set<string> | undefined;
  if (hit) return hit;
  const out = new Set<string>();
  for (const u of index.units) {
    if (u.page > 1) break;
    for (const m of u.text.matchAll(SALUTATION)) {
      const surname = m[1]!.trim().split(/\s+/).pop()!;
      if (surname.length >= 2) out.add(surname.toUpperCase());
    }
  }
  index.memo.set('greeted', out);
  return out;
}

/** A name whose surname the letter greets is the addressee's. */
function greetedSide(index: DocIndex, c: TypedCandidate): Side {
  if (typeof c.value !== 'string' || c.value.length > 60) return 0;
  const greeted = greetedNames(index);
  if (greeted.size === 0) return 0;
  return c.value.split(/[\s,]+/).some((w) => greeted.has(w.toUpperCase())) ? -1 : 0;
}

/** A letter's complimentary close, alone on its line: who signs under it is the sender. */
const CLOSING =
  /^\s*(?:(?:yours\s+)?(?:sincerely|faithfully|truly)(?:\s+yours)?|(?:with\s+)?(?:kind|best|warm|warmest|kindest)\s+regards|regards|respectfully(?:\s+yours)?|cordially|mit freundlichen gr(?:ü|ue)(?:ß|ss)en|met vriendelijke groet(?:en)?|cordialement|bien cordialement)\s*[,.]?\s*$/i;

interface Closings {
  /** Per page, the layout lines that hold a complimentary close. */
  lines: number[][];
  /** Per page, the layout line of each word. */
  lineOf: Map<number, number>[];
}

function closings(index: DocIndex): Closings {
  const hit = index.memo.get('closings') as Closings | undefined;
  if (hit) return hit;
  const out: Closings = { lines: [], lineOf: [] };
  index.layouts.forEach((layout, pi) => {
    const words = index.doc.pages[pi]!.words;
    const lineOf = new Map<number, number>();
    const close: number[] = [];
    layout.lines.forEach((line, li) => {
      for (const w of line.words) lineOf.set(w, li);
      if (CLOSING.test(line.words.map((w) => words[w]!.text).join(' '))) close.push(li);
    });
    out.lines.push(close);
    out.lineOf.push(close.length ? lineOf : new Map());
  });
  index.memo.set('closings', out);
  return out;
}

/** The few lines under a letter's close ("Sincerely,") hold its signer, title and company: the sender's side. */
function signedSide(index: DocIndex, c: TypedCandidate): Side {
  if (typeof c.value !== 'string' || c.value.length > 80) return 0;
  const k = closings(index);
  const close = k.lines[c.at.page];
  if (!close?.length) return 0;
  const at = k.lineOf[c.at.page]!.get(c.at.unit.words[c.at.from]!);
  return at !== undefined && close.some((l) => at > l && at <= l + 5) ? 1 : 0;
}

/**
 * A party named and then defined, `Westerly Industries Inc., a Delaware corporation ...
 * ("Provider")`: the defined term is its caption. Read up to the first quoted term within a
 * few dozen words, and not past an "and" that names the next party.
 */
function definedSide(index: DocIndex, c: TypedCandidate): Side {
  const term = definedTermOf(index, c);
  return term ? captionSide(term) : 0;
}

/**
 * The term a name is defined as where it is introduced: `X, a Delaware corporation ("Provider")`
 * → "Provider"; and a value defined where it is written: `as of August 11, 2011 (the "Closing
 * Date")`, `eighteen months (the "Standstill Period")`, read from right after it.
 */
function definedTermOf(index: DocIndex, c: TypedCandidate): string | null {
  if (c.source === 'typed') return definedValueOf(index, c);
  if (c.source !== 'name' && c.source !== 'item') return null;
  const text = c.at.unit.text;
  if (!text.includes('"') && !text.includes('\u201c')) return null;
  let memo = index.memo.get('defined-term') as Map<string, string | null> | undefined;
  if (!memo) {
    memo = new Map();
    index.memo.set('defined-term', memo);
  }
  const key = `${c.at.unit.id}:${c.at.to}`;
  const hit = memo.get(key);
  if (hit !== undefined) return hit;
  const term = DEFINED_AFTER.exec(wordsAfter(index, c, 40))?.[1] ?? null;
  memo.set(key, term);
  return term;
}
function definedValueOf(index: DocIndex, c: TypedCandidate): string | null {
  // A street is defined with its town and postcode after it: `2417 Maple Avenue, Clinton, NC
  // 89275 (the "Premises")`.
  if (c.traits.addressShape) return DEFINED_ADDRESS.exec(wordsAfter(index, c, 12))?.[1] ?? null;
  return DEFINED_VALUE.exec(wordsAfter(index, c, 6))?.[1] ?? null;
}
/** Up to n words of the candidate's unit after it, as text. */
function wordsAfter(index: DocIndex, c: TypedCandidate, n: number): string {
  const page = index.doc.pages[c.at.page]!;
  return c.at.unit.words
    .slice(c.at.to + 1, c.at.to + 1 + n)
    .map((w) => page.words[w]!.text)
    .join(' ');
}
/** `(the "Closing Date")` opening the words right after a value. */
const DEFINED_VALUE = /^,?\s*\(\s*(?:the\s+|hereinafter\s+)?["\u201c]([\p{Lu}][\p{L} ]{1,30})["\u201d]/u;
const DEFINED_ADDRESS = new RegExp(
  String.raw`^(?:,?\s*[\p{Lu}\d][\p{L}\d.'-]*){0,6}` + DEFINED_VALUE.source.slice(1),
  'u',
);
const DEFINED_AFTER =
  /^(?:(?!\band\b|\bbetween\b|;)[^"\u201c\u201d])*?\(\s*(?:the\s+|hereinafter\s+)?["\u201c]([\p{Lu}][\p{L} ]{1,30})["\u201d]/u;

/** Bank details: whoever prints them on the same line as their name is the one to be paid. */
const BANK_DETAILS =
  /\b(?:IBAN|BIC|SWIFT|sort code|routing (?:no|number)|bank account|account (?:no|number))\b/i;

/** A name on one line with bank details ("Acme B.V., Keizersgracht 1, IBAN NL91 …") is the payee: the issuing side. */
function payeeSide(index: DocIndex, c: TypedCandidate): Side {
  if (typeof c.value !== 'string' || c.source !== 'name') return 0;
  const page = index.doc.pages[c.at.page]!;
  const last = page.words[c.at.unit.words[c.at.to]!]!.box;
  const onLine = c.at.unit.words
    .slice(c.at.to + 1)
    .map((w) => page.words[w]!)
    .filter((w) => Math.abs((w.box[1] + w.box[3]) / 2 - (last[1] + last[3]) / 2) < (last[3] - last[1]) / 2);
  return BANK_DETAILS.test(onLine.map((w) => w.text).join(' ')) ? 1 : 0;
}

/**
 * The side (roles.ts) a candidate is on: by its own caption ("Licensed To: …"), the nearest
 * caption on its line, above it, heading its block or atop it, else by a letter's greeting, its
 * signature block, the term an agreement defines it by or the bank details printed after it.
 */
/**
 * Text beside a value reads as its caption only when it is short: in running text the words
 * before a name are the sentence ("…company ("Client"), and Juniper Vale"), not its label.
 */
const shortCaption = (text: string) =>
  (text.trim().split(/\s+/).length <= 4 || /:\s*$/.test(text)) && !/[()"\u201c\u201d]/.test(text) ? text : '';

export function candidateSide(index: DocIndex, c: TypedCandidate): Side {
  const near = nearbyOf(index, c.picture?.captionAt ?? c.at);
  const own = typeof c.value === 'string' ? CAPTIONED.exec(c.value) : null;
  return (
    (own ? captionSide(own[1]!) : 0) ||
    captionSide(shortCaption(near.left)) ||
    captionSide(shortCaption(near.above)) ||
    captionSide(near.heading) ||
    captionSide(near.blockTop) ||
    greetedSide(index, c) ||
    signedSide(index, c) ||
    definedSide(index, c) ||
    payeeSide(index, c)
  );
}

/**
 * The sides each value is captioned with anywhere in the document: the other party's name
 * printed under "Bill to" is the other party wherever else it appears (a footer, a contact line).
 */
export function valueSides(index: DocIndex, cands: readonly TypedCandidate[]): Map<string, number> {
  const out = new Map<string, number>();
  const mark = (k: string, side: Side) => out.set(k, (out.get(k) ?? 0) | (side === 1 ? 1 : 2));
  for (const c of cands) {
    const side = candidateSide(index, c);
    if (side === 0) continue;
    mark(valueKey(c), side);
    const own = typeof c.value === 'string' ? CAPTIONED.exec(c.value) : null;
    // "Name: Beatriz Osei" in the landlord's signature block: the name is on that side too.
    if (own && captionSide(own[1]!) !== -side) mark(valueKey({ ...c, value: own[2]! }), side);
  }
  return out;
}

/** Whether a value is printed anywhere on the asked side, and on the other side (valueSides). */
export function sidesSeen(ctx: ScoringContext, c: TypedCandidate): { same: boolean; other: boolean } {
  const seen = ctx.valueSides?.get(valueKey(c)) ?? 0;
  const asked = ctx.query.role === 1 ? 1 : 2;
  return { same: (seen & asked) !== 0, other: (seen & (3 ^ asked)) !== 0 };
}

/** Fills the learned word-association slots (they depend on the trained table, not only the page). */
export function fillAssociations(
  x: Float64Array | Float32Array,
  table: Associations | undefined,
  index: DocIndex,
  query: Query,
  c: TypedCandidate,
  group: Group,
): void {
  const near = nearbyOf(index, c.picture?.captionAt ?? c.at);
  const left = associationScore(table, group, query.focus, near.left);
  const above = associationScore(table, group, query.focus, near.above);
  x[ASSOC_LEFT] = left;
  x[ASSOC_ABOVE] = above;
  x[ASSOC_MAX] = Math.max(left, above);
  x[ASSOC_HEADING] = associationScore(table, group, query.focus, near.heading);
  x[ASSOC_SECTION] = associationScore(table, group, query.focus, near.section);
  const place = c.picture ? pictureWords(index, c) : '';
  x[ASSOC_PLACE] = associationSum(table, group, query.focus, place);
  place.split(' ').forEach((word, i) => {
    if (word) x[ASSOC_PLACE_ASPECT + i] = associationSum(table, group, query.focus, word);
  });
  x[ASSOC_LEFT_MEAN] = associationMean(table, group, query.focus, near.left);
  x[ASSOC_ABOVE_MEAN] = associationMean(table, group, query.focus, near.above);
  x[ASSOC_HEADING_MEAN] = associationMean(table, group, query.focus, near.heading);
  const clause = clauseContext(index, query, c);
  x[ASSOC_CLAUSE] = associationScore(table, clauseGroup(group), query.focus, clause);
  x[ASSOC_CLAUSE_MEAN] = associationMean(table, clauseGroup(group), query.focus, clause);
}

/** A cell holding only an amount or a count (currency codes and signs aside), not a date. */
const AMOUNT_CELL =
  /^[^\p{L}\p{N}]*(?:[A-Z]{3}\s?)?[-−+(]?[\p{Sc}]?\s?\d[\d.,' ]*\)?\s?(?:[A-Z]{3}|CR|DR|%)?[^\p{L}\p{N}]*$/u;

/** A short date cell opening a statement's row ("02 Nov", "12/03"). */
const DATE_CELL = /^\d{1,2}[\s./-](?:\d{1,2}|\p{L}{3,4}\.?)(?:[\s./-]\d{2,4})?$/u;

/**
 * Whether a candidate is an entry marked as one: counted out in a series, or opening its line
 * after a bullet or a counter. Entries of a bulleted list are sentences as often as names; a
 * courtesy line ("Thank you for shopping with us!") is a sentence no marker opens.
 */
function markedOf(index: DocIndex, c: TypedCandidate): number {
  if (c.series !== undefined || opensLineMarked(index, c)) return 1;
  // A cell that opens with its own marker ("3. Introduce quarterly pricing reviews").
  return c.at.from === 0 && MARKER_WORD.test(c.text.split(/\s+/)[0] ?? '') && /\s/.test(c.text) ? 1 : 0;
}

/**
 * The cell of words of a row that ends in a figure, in a run of such rows starting at one left
 * edge on its page (the lines of a receipt, an invoice, a statement): how many rows the run
 * has, up to five, as a share of five; 0 for anything else. Entries of a list are such rows
 * in most documents, whatever their column is headed, or whether it is headed at all.
 */
function itemRowOf(index: DocIndex, c: TypedCandidate): number {
  const unit = c.at.unit;
  if (unit.kind !== 'segment' || c.at.from !== 0 || c.at.to !== unit.words.length - 1 || c.picture) return 0;
  const memo = index.memo.get('item-rows') as Map<string, number> | undefined;
  const rows = memo ?? itemRows(index);
  if (!memo) index.memo.set('item-rows', rows);
  return rows.get(`${c.at.page}:${unit.line}:${unit.words[0]}`) ?? 0;
}

function itemRows(index: DocIndex): Map<string, number> {
  const out = new Map<string, number>();
  index.layouts.forEach((layout, page) => {
    const W = layout.page.width || 612;
    // Rows whose last cell is an amount, by the left edge of their cell of words.
    const byLeft: { key: string; left: number }[] = [];
    layout.lines.forEach((line, li) => {
      const segs = line.segments;
      if (segs.length < 2 || !AMOUNT_CELL.test(segs.at(-1)!.text)) return;
      // Its cell of words, the one with most letters: a line number, an item code or a date
      // may come before it.
      const letters = (t: string) => (DATE_CELL.test(t) ? 0 : (t.match(/\p{L}/gu)?.length ?? 0));
      const first = segs.slice(0, -1).reduce((a, g) => (letters(g.text) > letters(a.text) ? g : a));
      if (letters(first.text) < 3) return;
      byLeft.push({ key: `${page}:${li}:${first.words[0]}`, left: first.box[0] * W });
    });
    for (const row of byLeft) {
      const run = byLeft.filter((r) => Math.abs(r.left - row.left) < 4).length;
      if (run >= 2) out.set(row.key, Math.min(run, 5) / 5);
    }
  });
  return out;
}

export function featuresOf(
  ctx: ScoringContext,
  c: TypedCandidate,
  counts: Map<string, number>,
): Float64Array {
  const x = new Float64Array(FEATURE_COUNT);
  const set = (name: string, v: number) => {
    x[AT[name]!] = v;
  };
  const { index, query } = ctx;
  const [e, ex] = evidencePair(ctx, c);
  const page = index.doc.pages[c.at.page]!;
  const words = c.at.unit.words.slice(c.at.from, c.at.to + 1).map((w) => page.words[w]!);
  const box = c.picture?.box ?? [
    Math.min(...words.map((w) => w.box[0])),
    Math.min(...words.map((w) => w.box[1])),
    Math.max(...words.map((w) => w.box[2])),
    Math.max(...words.map((w) => w.box[3])),
  ];
  set('rel', e.relevance);
  // Entries counted out in one sentence ("does not include information that (a) …; (b) …") are
  // about what the sentence that opens the series is about.
  const lead = seriesLead(c);
  if (lead !== undefined && ctx.best > 0) set('seriesRel', Math.min(1, (ctx.scores[lead] ?? 0) / ctx.best));
  // …and a series that counts out the opposite of what is asked ("includes information that
  // (a) …" for what is excluded) answers none of it.
  if (lead !== undefined && ctx.opposed.size) {
    const opening = (index.passages[lead]?.text ?? '').split(MARKER)[0]!;
    set('seriesOpposed', assertedStems(opening).some((s) => ctx.opposed.has(s)) ? 1 : 0);
  }
  set('label', e.label);
  set('prox', e.proximity);
  set('relExact', ex.relevance);
  set('labelExact', ex.label);
  set('proxExact', ex.proximity);
  set('relRaw', ctx.best > 0 ? ctx.scores[c.at.unit.id]! / ctx.best : 0);
  const n = ctx.pageCount;
  set('pagePos', n > 1 ? c.at.page / (n - 1) : 0);
  set('firstPage', c.at.page === 0 ? 1 : 0);
  set('lastPage', n > 1 && c.at.page === n - 1 ? 1 : 0);
  set('yTop', clip(box[1]!));
  set('xLeft', clip(box[0]!));
  // Titles are set in the middle of the page; letterheads and labels at its margins.
  const width = box[2]! - box[0]!;
  set('centered', Math.abs((box[0]! + box[2]!) / 2 - 0.5) < 0.03 && width < 0.7 && box[0]! > 0.12 ? 1 : 0);
  if (words.length) {
    const h = words.reduce((s, w) => s + (w.box[3] - w.box[1]), 0) / words.length;
    const rel = Math.log(h / ctx.medianHeight[c.at.page]!);
    // In steps of 5%: a size within a few hundredths of the text's own is the text's size, and a
    // tree split at 0 must not read rounding (stored boxes keep 4 decimals) as a smaller font.
    set('fontRel', clip(Math.round(rel * 20) / 20, -1, 1));
    set('bigFont', rel > 0.25 ? 1 : 0);
  }
  const letters = c.text.match(/\p{L}/gu) ?? [];
  set('caps', letters.length ? letters.filter((l) => l === l.toUpperCase()).length / letters.length : 0);
  set('nWords', clip(Math.log1p(words.length) / 3));
  // The unit a duration is asked in ("how many months") is part of its answer, no echo of the question.
  const stems = contentStems(c.text).filter((s) => !(ctx.query.unit && TIME_UNIT.test(s)));
  // A word the question itself uses, not only a relative of one.
  const asked = (s: string) => (ctx.exact.weights.get(s) ?? 0) >= 0.8;
  set('promptInValue', stems.length ? stems.filter(asked).length / stems.length : 0);
  set('repeat', clip(Math.log1p((counts.get(valueKey(c)) ?? 1) - 1) / 2));
  if (c.traits.isDuration && !c.picture) {
    const anchor = anchorOf(index, c, (s) => asked(s) && !TIME_UNIT.test(s));
    set('anchorSelf', anchor === 'self' ? 1 : 0);
    set('anchorOther', anchor === 'other' ? 1 : 0);
  }
  const sentence = c.at.unit.kind === 'sentence' ? 1 : 0;
  set('sentenceUnit', sentence);
  // A piece of a longer sentence (a wrapped prose line, a word inside a clause) rather than a whole unit.
  const unitLength = Math.max(1, c.at.unit.words.length);
  set('unitShare', (c.at.to - c.at.from + 1) / unitLength);
  set('midSentence', sentence && (c.at.from > 0 || c.at.to < unitLength - 1) ? 1 : 0);
  set('labelXcell', c.source === 'cell' ? e.label : 0);
  set('labelXafter', c.source === 'after-label' ? e.label : 0);
  set('labelXsentence', sentence * e.label);
  set('relXprox', e.relevance * e.proximity);
  set('labelLeft', e.left);
  set('labelAbove', e.above);
  set('labelTable', e.table);
  set('labelPrefix', e.prefix);
  set('labelLeftExact', ex.left);
  set('labelAboveExact', ex.above);
  set('labelPrefixExact', ex.prefix);
  // A label next to the value that names something else: the value answers another question.
  set('otherLabel', e.nearText && /[:#]$/.test(e.nearText.trim()) && e.label === 0 ? 1 : 0);
  set('nearColon', /[:#]$/.test(e.nearText.trim()) ? 1 : 0);
  // A value written as a limit ("reply by 3 May", "Due date", "valid until") against a question
  // asking for one: a letter's own date is no reply-by date, a return deadline no purchase date.
  const before = c.at.unit.words.slice(Math.max(0, c.at.from - 4), c.at.from);
  const cue = DEADLINE_CUE.test(`${e.nearText} ${before.map((w) => page.words[w]?.text ?? '').join(' ')}`)
    ? 1
    : 0;
  // Named where the document defines it as what the question asks for: `X ("Provider")` for "the provider".
  const term = definedTermOf(index, c);
  set('definedAsked', term ? labelScore(term, query) : 0);
  set('qDeadline', query.deadline ? 1 : 0);
  set('deadlineCue', cue);
  set('qDeadline*deadlineCue', query.deadline ? cue : 0);
  const near = nearbyOf(index, c.picture?.captionAt ?? c.at);
  // "a Master Services Agreement dated as of …": the words left of the value date another thing.
  set('geoLeft', e.another ? 0 : labelScore(near.left, query));
  set('geoAbove', labelScore(near.above, query));
  set('geoLeftExact', e.another ? 0 : labelScore(near.left, ctx.exact));
  set('geoAboveExact', labelScore(near.above, ctx.exact));
  set('geoAboveGap', clip(near.aboveGap / 12));
  // A label naming the opposite of what is asked ("Closing balance", "Period to", "Debit").
  const opposed = (text: string) =>
    literalStems(text).some((s) => ctx.opposed.has(s)) ||
    namesCounterpart(ctx.counterparts, text) ||
    namesOnlyPart(ctx.parts, text)
      ? 1
      : 0;
  if (ctx.opposed.size || ctx.counterparts.size || ctx.parts.size) {
    set('opposedLabel', Math.max(opposed(e.nearText), opposed(near.left), opposed(shortCaption(near.above))));
    set('opposedColumn', opposed(near.columnHead));
  }
  set('geoHeading', labelScore(near.heading, query));
  set('geoHeadingExact', labelScore(near.heading, ctx.exact));
  set('geoSection', labelScore(near.section, query));
  set('geoSectionExact', labelScore(near.section, ctx.exact));
  // A name in a signature block (under a signature, after "By:") for a question about who signed.
  const captions = [near.above, near.left].filter((t) => t.split(/\s+/).length <= 4).join(' ');
  const block = c.picture ? 0 : signatureBlock(page, c, captions);
  set('signBlock', block);
  set('qSign*signBlock', query.terms.some((t) => /^sign(?!if)/.test(t)) ? block : 0);
  const column = headerMatch(near.columnHead, query.prompt);
  const row = headerMatch(near.rowHead, query.prompt);
  set('geoColumn', column);
  set('geoRow', row);
  set('geoRowXColumn', column * row);
  // One end of a span against the other: "Balance brought forward" opens a statement that
  // "Balance carried forward" closes, "Period from … To …" names both dates.
  if (query.phase && !c.picture) {
    const written = phaseWrittenOf(ctx, c);
    set('phaseAgrees', written === query.phase ? 1 : 0);
    set('phaseOpposes', written && written !== query.phase ? 1 : 0);
    // The other end's caption names the opposite of what is asked, as an antonym does: what a
    // scorer learned of opposed labels on dates holds for balances it never saw asked.
    if (written && written !== query.phase) x[AT.opposedLabel!] = 1;
  }
  // A row named by what it holds: a statement line whose "Paid in" cell is filled is a deposit.
  const filled = filledColumnsOf(index, c.at);
  if (filled.length) {
    set('rowFilledAsked', Math.max(...filled.map((h) => labelScore(h, query))));
    if (ctx.opposed.size || ctx.counterparts.size || ctx.parts.size)
      set('rowFilledOpposed', Math.max(...filled.map(opposed)));
  }
  // A row filling one of two alternative columns ("Paid out" where others fill "Paid in") when
  // the other answers better: this row is the other kind, as if its column were an antonym. A
  // summary row filling fewer of the same columns is no alternative.
  const li = lineOfWord(index, c.at.page)[c.at.unit.words[c.at.from]!]!;
  const own = filledRowsOf(index, c.at.page).get(li);
  if (own && alternativeAnswersBetter(ctx, index, c.at.page, li, own)) x[AT.rowFilledOpposed!] = 1;
  // Two to four capitalised words without a corporate suffix read as a person's name, unless
  // every one is an ordinary word: "Annual Operations Report" is a title, not a person.
  const person =
    typeof c.value === 'string' &&
    /^(?:[\p{Lu}][\p{L}'’.-]+\s){1,3}[\p{Lu}][\p{L}'’.-]+$/u.test(c.value) &&
    !c.traits.orgSuffix &&
    (c.traits.lexicon ?? 0) < 1
      ? 1
      : 0;
  set('personShape', person);
  // Who is asked for: a person or a group, by the question's words and its noun in the lexicon.
  const asksWho = /\bwho(?:m|se)?\b|\bperson\b/i.test(query.prompt) || query.asks === 'person' ? 1 : 0;
  const asksCompany =
    /\b(?:company|firm|business|store|shop|provider|supplier|vendor|merchant)\b/i.test(query.prompt) ||
    query.asks === 'group'
      ? 1
      : 0;
  set('qWho*orgSuffix', asksWho * (c.traits.orgSuffix ?? 0));
  set('qWho*personShape', asksWho * person);
  set('qCompany*orgSuffix', asksCompany * (c.traits.orgSuffix ?? 0));
  set('qCompany*personShape', asksCompany * person);
  set('qCompany*groupNoun', asksCompany * (c.traits.groupNoun ?? 0));
  // "What is this document called?", "Form title": a title names the kind of writing it heads.
  // A title is told by its size as much as by naming a kind of writing ("Flood Readiness
  // Assessment" names none).
  const titleAsked = asksTitle(query.prompt);
  set('qTitle*writing', titleAsked ? (c.traits.writing ?? 0) : 0);
  set('qTitle*fontRel', titleAsked ? x[AT.fontRel!]! : 0);
  set('qWho*groupNoun', asksWho * (c.traits.groupNoun ?? 0));
  // Asked for a thing, neither a party nor a person ("the restrictions on the tenant", "What may
  // the tenant not do?"): a person's name answers it seldom, however well the tenant is named.
  set('qThing*personShape', query.kind === 'span' && !asksWho && !asksCompany ? person : 0);
  // "Name of the person who wrote the report": a person is asked in so many words, never a company
  // ("who" alone asks for either: "Who issued the invoice?" names a company).
  const asksPerson =
    PERSON_ASKED.test(query.prompt) && !asksCompany && !COMPANY_TOO.test(query.prompt) ? 1 : 0;
  set('qPerson*orgSuffix', asksPerson * (c.traits.orgSuffix ?? 0));
  set('qPerson*personShape', asksPerson * person);
  // Its label names what the prompt rules out ("Bill to" when asked for the seller, not the customer).
  if (query.excluded.size && e.nearText) {
    set(
      'excludedLabel',
      contentStems(e.nearText).some((s) => query.excluded.has(s) || ctx.excludedRelated.has(s)) ? 1 : 0,
    );
  }
  if (query.role !== 0) {
    set('roleAsked', 1);
    const side = candidateSide(index, c);
    set('roleSame', side === query.role ? 1 : 0);
    set('roleOther', side === -query.role ? 1 : 0);
    const seen = sidesSeen(ctx, c);
    set('roleSameElsewhere', seen.same ? 1 : 0);
    set('roleOtherElsewhere', seen.other ? 1 : 0);
    // The greeted name itself, not just anything in the addressee's block (its company, street).
    set('roleGreeted', query.role === -1 && greetedSide(index, c) === -1 ? 1 : 0);
    const place = placeSide(index, c);
    set('placeSame', place === query.role ? 1 : 0);
    set('placeOther', place === -query.role ? 1 : 0);
  }
  set(`source:${c.source}`, 1);
  for (const t of TRAITS) set(`trait:${t}`, c.traits[t] ?? 0);
  set(`kind:${query.kind}`, 1);
  const t = c.traits;
  const is = (k: string) => (query.kind === k ? 1 : 0);
  set('qId*idShape', is('identifier') * (t.idShape ?? 0));
  set('qId*hasDigits', is('identifier') * (t.hasDigits ?? 0));
  set('qEntity*nameShape', is('entity') * (t.nameShape ?? 0));
  set('qEntity*orgSuffix', is('entity') * (t.orgSuffix ?? 0));
  set('qEntity*hasDigits', is('entity') * (t.hasDigits ?? 0));
  set('qPlace*nameShape', is('place') * (t.nameShape ?? 0));
  set('qPlace*addressShape', is('place') * (t.addressShape ?? 0));
  // A street address answers "the address", "where is it located", not "which state" or
  // "which country": both are places, told apart by the word the question uses.
  set(
    'qAddress*addressShape',
    !query.contact && ADDRESS_ASKED.test(query.prompt) ? (t.addressShape ?? 0) : 0,
  );
  set('qRegion*addressShape', REGION_ASKED.test(query.prompt) ? (t.addressShape ?? 0) : 0);
  set('qSpan*sentence', is('span') * (c.source === 'sentence' ? 1 : 0));
  set('itemRow', itemRowOf(index, c));
  set('marked', markedOf(index, c));
  set('qMoney*isMoney', is('money') * (t.isMoney ?? t.currency ?? 0));
  // "How many kWh", "how many shares": a count of something, seldom an amount of money.
  set('qCount*isMoney', /\bhow many\b/i.test(query.prompt) ? (t.isMoney ?? t.currency ?? 0) : 0);
  set('qDuration*isDuration', is('duration') * (t.isDuration ?? 0));
  set('qDate*isDate', is('date') * (t.isDate ?? 0));
  // A value of another kind than the one asked for: the "30 days" of a payment term is no
  // reference, however close to the question's words, nor a date an amount.
  const valueKind = t.isDate ? 'date' : t.isDuration ? 'duration' : t.isMoney || t.currency ? 'money' : null;
  set(
    'qValue*otherKind',
    VALUE_KINDS.includes(query.kind) && valueKind !== null && !fitsKind(query, c) ? 1 : 0,
  );
  if (query.contact) {
    const shape = contactOf(c);
    set('qContact*fits', shape === query.contact ? 1 : 0);
    set('qContact*other', shape !== null && shape !== query.contact ? 1 : 0);
  } else {
    // A telephone number, an e-mail or a web address answering a question about something else:
    // a customer number left off a statement is not the service line printed where it would be.
    set('contactUnasked', contactOf(c) !== null ? 1 : 0);
  }
  if (query.tail !== null) {
    const fits = fitsTail(query.tail, c);
    set('qTail*fits', fits ? 1 : 0);
    set('qTail*masked', fits && maskedDigits(page, words) ? 1 : 0);
  }
  if (c.picture) {
    const b = c.picture.box;
    const area = (b[2] - b[0]) * (b[3] - b[1]);
    const captionLabel = labelScore(c.picture.caption, query);
    set('picture:captionLabel', captionLabel);
    // A caption naming something else ("Signature of registrant" under a question for the seal).
    set('picture:captionOther', captionLabel === 0 && /\p{L}{3}/u.test(c.picture.caption ?? '') ? 1 : 0);
    set('picture:captionLabelExact', labelScore(c.picture.caption, ctx.exact));
    set('picture:numbered', NUMBERED_CAPTION.test(c.picture.caption) ? 1 : 0);
    set('picture:area', clip(Math.sqrt(area)));
    set('picture:aspect', clip(Math.log((b[2] - b[0]) / Math.max(1e-3, b[3] - b[1])) / 3, -1, 1));
    set('picture:top', b[1] < 0.2 ? 1 : 0);
    set('picture:bottom', b[1] > 0.6 ? 1 : 0);
    set('picture:onPage', clip(page.images.length / 5));
  }
  return x;
}

/** Digits only, as many as asked (3 to 6 when the question does not say how many). */
function fitsTail(tail: number, c: TypedCandidate): boolean {
  const digits = typeof c.value === 'string' && /^\d+$/.test(c.value) ? c.value.length : 0;
  return tail ? digits === tail : digits >= 3 && digits <= 6;
}

/** Digits printed after a mask ("****4411", "XXXX 4411", "•••• 4411"), as cards and accounts are shown. */
const MASK = /^[*xX•·#]{2,}[-\s]?\d+$/;
const MASK_GROUP = /^[*xX•·#]{2,}-?$/;
function maskedDigits(page: EnginePage, words: readonly EnginePage['words'][number][]): boolean {
  const first = words[0];
  if (!first) return false;
  if (MASK.test(first.text.replace(/[.,;:)]+$/, ''))) return true;
  const i = page.words.indexOf(first);
  return i > 0 && MASK_GROUP.test(page.words[i - 1]!.text);
}

/** Features saying a value's own caption says all the question says. */
export const OWN_LABEL = ['labelExact', 'geoLeftExact', 'geoAboveExact'].map((f) => AT[f]!);

/**
 * Fills the features that compare a candidate with the others of its question (call after the
 * associations are filled). `labelUnused`: the document has a label for the field that no
 * candidate sits by, as a form field left blank does.
 */
const contactOf = (c: TypedCandidate) =>
  c.traits.isEmail ? 'email' : c.traits.isPhone ? 'phone' : c.traits.isWeb ? 'web' : null;

/** Whether a candidate is of the kind of value a question asks for (any amount written as money, any date…). */
export function fitsKind(query: Query, c: TypedCandidate): boolean {
  const kind = query.kind;
  const t = c.traits;
  if (query.contact) return contactOf(c) === query.contact;
  if (query.tail) return fitsTail(query.tail, c);
  if (kind === 'money') return Boolean(t.isMoney || t.currency || t.decimals);
  if (kind === 'date') return Boolean(t.isDate) || /^\d{4}-\d{2}-\d{2}$/.test(String(c.value));
  if (kind === 'duration') return Boolean(t.isDuration);
  if (kind === 'identifier') return Boolean(t.idShape);
  return false;
}

/**
 * `soleFit`: one over how many different values in the document are of the kind the question
 * asks for (1 when a letter mentions one sum of money and the question asks for an amount).
 */
export function fillSoleFit(
  xs: readonly (Float64Array | Float32Array)[],
  cands: readonly TypedCandidate[],
  query: Query,
): void {
  const fits = cands.map((c) => fitsKind(query, c));
  const values = new Set<string>();
  cands.forEach((c, i) => {
    if (fits[i]) values.add(valueKey(c));
  });
  xs.forEach((x, i) => {
    x[AT.soleFit!] = fits[i] ? 1 / values.size : 0;
  });
}

/**
 * A value written elsewhere at one end of the span ("Balance carried forward 7,200.05") is that
 * end's value where it stands without a caption too: the last row's running balance is the
 * closing one, no opening balance. Only when no occurrence is written at the other end.
 */
export function fillPhaseElsewhere(
  xs: readonly (Float64Array | Float32Array)[],
  cands: readonly TypedCandidate[],
): void {
  const agrees = new Set<string>();
  const opposes = new Set<string>();
  cands.forEach((c, i) => {
    if (xs[i]![AT.phaseAgrees!]) agrees.add(valueKey(c));
    if (xs[i]![AT.phaseOpposes!]) opposes.add(valueKey(c));
  });
  if (agrees.size === 0 && opposes.size === 0) return;
  cands.forEach((c, i) => {
    const k = valueKey(c);
    xs[i]![AT.phaseAgreedElsewhere!] = agrees.has(k) && !opposes.has(k) ? 1 : 0;
    xs[i]![AT.phaseOpposedElsewhere!] = opposes.has(k) && !agrees.has(k) ? 1 : 0;
  });
}

export function fillRelative(xs: readonly (Float64Array | Float32Array)[], ctx: ScoringContext): void {
  if (xs.length === 0) return;
  let bestOwn = 0;
  for (const x of xs) bestOwn = Math.max(bestOwn, ...OWN_LABEL.map((i) => x[i]!));
  const unused = clip(ctx.bestLineLabel - bestOwn);
  for (const f of RELATIVE) {
    const i = AT[f]!;
    let max = Number.NEGATIVE_INFINITY;
    for (const x of xs) max = Math.max(max, x[i]!);
    const gap = AT[`${f}:gap`]!;
    for (const x of xs) x[gap] = clip(max - x[i]!, 0, 2);
    if ((RELATIVE_MAX as readonly string[]).includes(f)) for (const x of xs) x[AT[`${f}:max`]!] = max;
  }
  for (const x of xs) {
    const own = Math.max(...OWN_LABEL.map((i) => x[i]!));
    x[AT.ownLabel!] = own;
    x[AT.ownLabelShort!] = clip(ctx.bestLineLabel - own);
    x[AT.labelUnused!] = unused;
  }
}
