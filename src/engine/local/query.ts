import { contentStems, stem } from '../text/tokenize.ts';

/**
 * Words that documents use for the same field. A prompt term pulls in its group at a lower
 * weight, so "When is it effective?" also finds "dated as of" and "made and entered into".
 */
const SYNONYM_GROUPS: readonly string[][] = [
  ['date', 'dated', 'effective', 'commencement', 'entered', 'made', 'executed'],
  ['amount', 'total', 'sum', 'gross', 'price', 'cost', 'fee', 'value', 'due', 'balance'],
  ['party', 'parties', 'between', 'among', 'by'],
  ['law', 'laws', 'governed', 'governing', 'jurisdiction', 'construed', 'venue'],
  ['term', 'duration', 'period', 'years', 'months', 'continue', 'remain', 'expire', 'terminate'],
  ['advertiser', 'client', 'sponsor', 'candidate', 'campaign', 'committee', 'agency', 'product'],
  ['contract', 'order', 'agreement', 'estimate', 'deal'],
  ['invoice', 'bill', 'statement'],
  ['number', 'no', 'num', '#', 'id', 'reference', 'ref', 'code'],
  ['start', 'begin', 'beginning', 'commence', 'from', 'first'],
  ['end', 'ending', 'expiration', 'expiry', 'until', 'through', 'last', 'to'],
  ['flight', 'air', 'airing', 'broadcast', 'schedule', 'dates', 'period', 'run'],
  ['signature', 'signed', 'sign', 'executed'],
  ['address', 'located', 'location', 'office'],
  ['percent', 'percentage', 'rate', '%'],
  ['confidential', 'confidentiality', 'proprietary', 'secret'],
  ['company', 'corporation', 'inc', 'llc', 'ltd', 'organisation', 'organization'],
  ['buyer', 'purchaser', 'customer'],
  ['seller', 'vendor', 'supplier', 'provider'],
];

const SYNONYMS = new Map<string, Set<string>>();
for (const group of SYNONYM_GROUPS) {
  const stems = group.map((w) => (w === '#' ? '#' : stem(w)));
  for (const s of stems) {
    const set = SYNONYMS.get(s) ?? new Set<string>();
    for (const t of stems) if (t !== s) set.add(t);
    SYNONYMS.set(s, set);
  }
}

export type AnswerKind = 'duration' | 'date' | 'money' | 'identifier' | 'entity' | 'place' | 'span';

export interface Query {
  prompt: string;
  /** Stem → weight: 1 for the prompt's own words, 0.35 for their synonyms. */
  weights: Map<string, number>;
  /** The prompt's own content stems, in order. */
  terms: string[];
  /** For ranges (flight dates, periods): which end the prompt asks for. */
  rangeEnd: 'start' | 'end' | null;
  /** "How many months" etc.: the unit a number answer is wanted in. */
  unit: 'days' | 'weeks' | 'months' | 'years' | 'percent' | null;
  kind: AnswerKind;
  /** Words of the prompt that name the thing asked (for label matching), e.g. "invoice number". */
  negated: boolean;
}

export function analyzeQuery(prompt: string): Query {
  const lower = prompt.toLowerCase();
  // Only the question itself, not formatting instructions ("Answer as YYYY-MM-DD", "e.g. ...").
  const core = lower
    .replace(/\banswer (?:as|in|with)\b[^.?]*[.?]?/g, ' ')
    .replace(/\((?:e\.g\.|for example|eg)[^)]*\)/g, ' ')
    .replace(/\bleave (?:it )?(?:empty|blank)[^.?]*[.?]?/g, ' ')
    .replace(/\byyyy-mm-dd\b/g, ' ');
  // Words in parentheses clarify the question; the words outside it name what is asked.
  const head = core.replace(/\([^)]*\)/g, ' ');
  const terms = contentStems(head);
  const weights = new Map<string, number>();
  for (const t of contentStems(core)) weights.set(t, 0.8);
  for (const t of terms) weights.set(t, 1);
  for (const t of terms) {
    for (const s of SYNONYMS.get(t) ?? []) if (!weights.has(s)) weights.set(s, 0.35);
  }
  const startHits = (
    core.match(/\b(first|start|starting|begin|beginning|from|earliest|commence\w*|opening)\b/g) ?? []
  ).length;
  const endHits = (core.match(/\b(last|end|ending|final|until|through|expir\w*|latest|closing)\b/g) ?? [])
    .length;
  const rangeEnd = startHits > endHits ? 'start' : endHits > startHits ? 'end' : null;
  const unitMatch = core.match(
    /\bhow many (days|weeks|months|years)\b|\bin (days|weeks|months|years)\b|\b(percent|percentage)\b/,
  );
  const unitWord = unitMatch?.[1] ?? unitMatch?.[2] ?? (unitMatch?.[3] ? 'percent' : null);
  // "How many months" names the answer's unit, not words to look for.
  if (unitWord && unitWord !== 'percent') {
    const u = stem(unitWord);
    weights.delete(u);
    for (let i = terms.length - 1; i >= 0; i--) if (terms[i] === u) terms.splice(i, 1);
  }
  const kind = answerKind(core);
  // Likewise "date" in a date question: every date field's label says it.
  if (kind === 'date') {
    const d = stem('date');
    weights.set(d, 0.6);
    for (let i = terms.length - 1; i >= 0; i--) if (terms[i] === d) terms.splice(i, 1);
  }
  return {
    prompt,
    weights,
    terms,
    rangeEnd,
    unit: unitWord as Query['unit'],
    kind,
    negated: /\b(not|never|without)\b/.test(core),
  };
}

function answerKind(q: string): AnswerKind {
  if (/\bhow long\b|\bduration\b|\bterm\b|\bperiod\b/.test(q) && !/\bdate\b/.test(q)) return 'duration';
  if (/\bwhen\b|\bdate\b|\bday\b/.test(q)) return 'date';
  if (/\bhow much\b|\bamount\b|\bprice\b|\bcost\b|\btotal\b|\bfee\b|\$|\bdollars?\b/.test(q)) return 'money';
  if (
    /\bnumber\b|#|\bno\.|\bid\b|\bcode\b|\breference\b/.test(q) &&
    !/\bhow many\b|\bnumber of (?!this|the|that|its|each)\w/.test(q)
  ) {
    return 'identifier';
  }
  if (
    /\bwho\b|\bwhom\b|\bname\b|\bpart(?:y|ies)\b|\bcompany\b|\badvertiser\b|\bbuyer\b|\bseller\b|\bvendor\b|\bcustomer\b|\bclient\b|\borgani[sz]ation\b/.test(
      q,
    )
  ) {
    return 'entity';
  }
  if (/\bwhere\b|\bstate\b|\bcountry\b|\bcity\b|\baddress\b|\blocation\b/.test(q)) return 'place';
  return 'span';
}
