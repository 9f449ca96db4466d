import { citeWords } from '../citations.ts';
import { contentStems, escapeRegex, literalStems, rawTokens, STOPWORDS, stem } from '../text/tokenize.ts';
import type { AnswerValue, Citation, EngineColumn, EngineDocument, Region } from '../types.ts';
import { durationCandidates, durationIn } from './candidates.ts';
import { indexFor } from './doc-index.ts';
import {
  DEADLINE_CUE,
  FEATURES,
  featuresOf,
  fillAssociations,
  fillPhaseElsewhere,
  fillRelative,
  fillSoleFit,
  fitsKind,
  isNoticePeriod,
  NOTICE,
  OWN_LABEL,
  phaseNamed,
  phaseWrittenOf,
  type ScoringContext,
  scoringContext,
  valueCounts,
  valueKey,
  valueSides,
} from './features.ts';
import { listItems, wordKeys } from './list-items.ts';
import { calibrate, logit, type Platt, probability, type ScorerModel, scoreOf, sigmoid } from './model.ts';
import { nearbyOf } from './nearby.ts';
import { nounKind } from './nouns.ts';
import { captionShares } from './picture-owner.ts';
import { analyzeQuery, existenceTarget, type Query, VALUE_KINDS } from './query.ts';
import { topPassages } from './retrieval.ts';
import { derivedStems, relatedStems } from './synonyms.ts';
import { type Group, groupOf, type TypedCandidate, typedCandidates } from './typed-candidates.ts';

/** One document's answer: what a fact holds, plus the score bundles reduce on. */
export interface DocumentAnswer {
  status: 'SUCCESS' | 'ERROR';
  statusText?: string;
  value: AnswerValue | null;
  citations: Citation[];
  confidence: number | null;
  /** Probability of the chosen candidate (0 when the document holds no value). */
  score: number;
  /** Found nothing: value is `{type, value: null}`. */
  empty: boolean;
}

export function queryFor(column: EngineColumn): Query {
  return analyzeQuery(column.prompt);
}

/** A candidate with its features and the scorer's probability that it is the answer. */
export interface Scored {
  cand: TypedCandidate;
  x: Float64Array | Float32Array;
  p: number;
}

export interface Examined {
  group: Group;
  ctx: ScoringContext;
  scored: Scored[];
}

/** Candidates of one document for one column, each with features and probability. */
export function examine(
  column: EngineColumn,
  query: Query,
  doc: EngineDocument,
  model: ScorerModel,
): Examined {
  const index = indexFor(doc);
  const group = groupOf(column.outputType);
  const ctx = scoringContext(index, query, group !== 'boolean');
  const found = typedCandidates(index, query, ctx.scores, column.outputType, column.config);
  const pages = pagesToRead(ctx, found);
  const cands = found.filter((c) => pages.has(c.at.page));
  const counts = valueCounts(cands);
  if (query.role !== 0) ctx.valueSides = valueSides(index, cands);
  const m = model.groups[group];
  const xs = cands.map((cand) => {
    const x = featuresOf(ctx, cand, counts);
    fillAssociations(x, model.associations, index, query, cand, group);
    return x;
  });
  fillSoleFit(xs, cands, query);
  fillPhaseElsewhere(xs, cands);
  fillRelative(xs, ctx);
  const ranked = cands.map((cand, i) => ({ cand, x: xs[i]!, ...scoreOf(m, m.ranker, xs[i]!) }));
  ranked.sort((a, b) => b.rank - a.rank);
  const scored: Scored[] = ranked.map(({ cand, x, p }) => ({ cand, x, p }));
  return { group, ctx, scored };
}

/**
 * A length of time counted from another event ("for six months following the termination of my
 * employment") is that event's period. Where the document also counts one from what the question
 * asks about ("for four years from the date hereof"), those from other events rank after every
 * other candidate, whatever the scorer made of them: the scorer learned the anchor from few
 * examples, and a retrain scored the two within 0.01 of each other.
 */
function selfCountedFirst<T extends { x: ArrayLike<number> }>(scored: T[]): T[] {
  if (!scored.some((s) => s.x[AT.anchorSelf!] === 1)) return scored;
  const other = (s: T) => s.x[AT.anchorOther!] === 1;
  return [...scored.filter((s) => !other(s)), ...scored.filter(other)];
}

/**
 * A question naming a person ("the contact person", "the person submitting the form") is answered
 * by a person's name first, and names ending in a legal form rank after every other candidate. On
 * left-out purchase orders, forms and reports the scorer put the letterhead's company or the
 * report's title first for such questions (its trees weigh the interaction little, from few examples).
 */
function personsFirst<T extends { x: ArrayLike<number> }>(scored: T[]): T[] {
  const company = (s: T) => s.x[AT['qPerson*orgSuffix']!] === 1;
  const person = (s: T) => s.x[AT['qPerson*personShape']!] === 1;
  if (!scored.some(company) && !scored.some(person)) return scored;
  return [
    ...scored.filter(person),
    ...scored.filter((s) => !company(s) && !person(s)),
    ...scored.filter(company),
  ];
}

/**
 * Whose length of time a clause states, by the subject of its sentence: "This Agreement shall
 * expire five (5) years after ..." is the agreement's, "The obligations of confidentiality under
 * this Agreement shall remain in effect for 5 years" the obligations'. The subject is read up to
 * its verb, and only its head and "of" complements ("under this Agreement" qualifies it).
 */
function subjectOf(e: Examined, c: TypedCandidate): '' | 'self' | 'other' {
  if (!c.traits.isDuration) return '';
  const found = subjectBefore(e, c) ?? subjectAfter(e, c);
  if (found === undefined || !/\p{L}/u.test(found.head)) return '';
  const { head, verb } = found;
  // "The obligations of this Agreement last for five (5) years": what the document binds lasts
  // as long as the document does.
  const stems = OF_DOCUMENT.test(head) ? [] : contentStems(head);
  const asked = [...e.ctx.query.weights].filter(([, w]) => w >= 0.8).map(([t]) => t);
  const ownAsked = asksOwnLength(e.ctx.query);
  // "shall automatically renew for successive periods of one (1) year": a renewal's length, not the term's.
  if (RENEWS.test(verb) && !asked.some((t) => t.startsWith('renew'))) return 'other';
  // A subject of no content words is the document itself ("This Agreement shall expire ..."), and
  // one naming only a length is its length ("The initial term of this Agreement is 12 months"):
  // the document's own length, asked when the question names nothing but a length.
  if (stems.length === 0 && !DOCUMENT_NOUN.test(head)) return '';
  if (stems.every((t) => LENGTH_STEM.test(t)) && ownAsked) return 'self';
  // Whose it is, or what is done in it: "Company shall pay each invoice within ten days" is the payment period.
  const doing = contentStems(found.predicate);
  if ([...stems, ...doing].some((t) => asked.includes(t))) return 'self';
  return 'other';
}
const RENEWS = /^renew(?:s|ed)?$/;

/** The head of a sentence's subject, and the verb whose subject it is. */
interface Subject {
  head: string;
  verb: string;
  /** The words from the verb to the length. */
  predicate: string;
}

const bareWord = (w: string) => w.toLowerCase().replace(/[^\p{L}]/gu, '');

/** The words of a text unit before (or after) a candidate, as printed. */
function unitWords(e: Examined, c: TypedCandidate, side: 'before' | 'after'): string[] {
  const page = e.ctx.index.doc.pages[c.at.page]!;
  const ids = side === 'before' ? c.at.unit.words.slice(0, c.at.from) : c.at.unit.words.slice(c.at.to + 1);
  return ids.map((w) => page.words[w]?.text ?? '');
}

/** The head of the subject of the verb a length follows ("shall remain in effect for 5 years"). */
function subjectBefore(e: Examined, c: TypedCandidate): Subject | undefined {
  const words = unitWords(e, c, 'before');
  let i = words.length - 1;
  while (i >= 0 && words.length - i <= 12 && !SUBJECT_VERB.test(bareWord(words[i]!))) {
    if (/[,.;:]$/.test(words[i]!)) return undefined;
    i--;
  }
  if (i < 0 || !SUBJECT_VERB.test(bareWord(words[i]!))) return undefined;
  const verb = bareWord(words[i]!);
  // What the subject does until the length ("shall pay each undisputed invoice within").
  const predicate = words.slice(i + 1).join(' ');
  // Back over its auxiliaries and adverbs ("shall automatically expire"), then its subject up to
  // the clause's start.
  while (i >= 0 && (SUBJECT_VERB.test(bareWord(words[i]!)) || /ly$/.test(bareWord(words[i]!)))) i--;
  const subject: string[] = [];
  for (; i >= 0; i--) {
    const w = words[i]!;
    if (/[,.;:]$/.test(w)) break;
    // A subject joined to another ("The terms of this Agreement and all obligations thereof") or
    // a verb joined to another ("will terminate and no longer be"): whose length it is, is not read.
    if (CLAUSE_OPENER.test(bareWord(w)) || SUBJECT_VERB.test(bareWord(w))) return undefined;
    subject.unshift(w);
  }
  // A heading run into the sentence ("4. CONFIDENTIALITY PERIOD The obligations of ..."): the
  // subject starts at its determiner.
  const opens = subject.findIndex(
    (w, k) => k > 0 && /^(?:The|This|Each|Either|Neither|Any|All|Such)$/.test(w),
  );
  // A heading is in capitals or title case ("4. Duration of Confidentiality").
  const heading = (words: readonly string[]) =>
    words.every(
      (w) => !/\p{Ll}/u.test(w) || /^\p{Lu}/u.test(w) || /^(?:of|and|or|the|for|to|in|on)$/.test(w),
    );
  const own = withoutAsides(opens > 0 && heading(subject.slice(0, opens)) ? subject.slice(opens) : subject);
  return own.length <= 8 ? { head: headOf(own), verb, predicate } : undefined;
}

/** Words outside parentheses: '(the "Initial Term")' defines a subject, it is no part of it. */
function withoutAsides(words: readonly string[]): string[] {
  const out: string[] = [];
  let depth = 0;
  for (const w of words) {
    if (w.startsWith('(')) depth++;
    if (depth === 0) out.push(w);
    if (w.endsWith(')') || w.endsWith(')"') || w.endsWith(')”')) depth = Math.max(0, depth - 1);
  }
  return out;
}

/** A length in a clause put first ("for twelve months thereafter, neither party shall ..."): the subject after it. */
function subjectAfter(e: Examined, c: TypedCandidate): Subject | undefined {
  const words = unitWords(e, c, 'after');
  const comma = words.slice(0, 10).findIndex((w) => /,$/.test(w));
  if (comma < 0 || words.slice(0, comma + 1).some((w) => /[.;:]$/.test(w))) return undefined;
  const subject: string[] = [];
  for (const w of words.slice(comma + 1, comma + 9)) {
    if (SUBJECT_VERB.test(bareWord(w))) return { head: headOf(subject), verb: bareWord(w), predicate: '' };
    if (/[,.;:]$/.test(w) || CLAUSE_OPENER.test(bareWord(w))) return undefined;
    subject.push(w);
  }
  return undefined;
}

/** A subject's head and its "of" complements: "under this Agreement" qualifies it, names nothing. */
function headOf(subject: readonly string[]): string {
  const cut = subject.findIndex((w) => SUBJECT_BREAK.test(bareWord(w)));
  return (cut < 0 ? subject : subject.slice(0, cut)).join(' ');
}
const SUBJECT_VERB =
  /^(?:shall|will|must|may|is|are|was|were|be|remains?|continues?|expires?|survives?|lasts?|terminates?|runs?|commences?|begins?|ends?|renews?)$/;
/** Words after which a subject's head is qualified, not named: "under this Agreement", "in respect of". */
const SUBJECT_BREAK = /^(?:under|in|for|to|with|by|from|on|at|pursuant|hereunder|herein)$/;
/** Words that open a clause: the subject of the verb follows them. */
const CLAUSE_OPENER =
  /^(?:and|but|or|unless|if|that|which|where|when|whereas|upon|after|before|until|provided)$/;
/** A subject belonging to the document itself ("The obligations of this Agreement"). */
const OF_DOCUMENT = /\bof\s+(?:this|the)\s+(?:agreement|contract|nda)\b/i;
/** A subject naming the document itself ("This Agreement"), which no content word does. */
const DOCUMENT_NOUN = /\b(?:agreement|contract|nda)\b/i;
/** Stems that name a length of time, not whose it is. */
const LENGTH_STEM =
  /^(?:term|period|durat|length|time|month|year|week|day|last|long|run|valid|effect|forc|fix|remain|initi|renew|itself)/;

/**
 * Asked for the length of one thing ("the term of this agreement"), and some clause states a
 * length whose sentence is about that thing: lengths of clauses about something else (the
 * obligations of confidentiality) rank after every other candidate.
 */
function ownSubjectFirst(e: Examined): Scored[] {
  const subjects = e.scored.map((s) => subjectOf(e, s.cand));
  if (!subjects.includes('self') || !subjects.includes('other')) return e.scored;
  return [
    ...e.scored.filter((_, i) => subjects[i] !== 'other'),
    ...e.scored.filter((_, i) => subjects[i] === 'other'),
  ];
}

/**
 * A date written as another document's ("parties to a Master Services Agreement dated as of
 * 15 March 2026"): the date of that agreement, which the question about this document does not ask.
 */
function datesAnotherDocument(e: Examined, c: TypedCandidate): boolean {
  const before = unitWords(e, c, 'before').slice(-10);
  const at = before.findLastIndex((w) => /^dated$/i.test(w));
  if (at < 0 || before.length - at > 3) return false;
  const owner: string[] = [];
  for (let i = at - 1; i >= 0 && owner.length < 6; i--) {
    if (/[,.;:)]$/.test(before[i]!)) break;
    owner.unshift(before[i]!);
  }
  // "this Agreement dated ..." is this document.
  if (owner.some((w) => /^(?:this|these|present)$/i.test(w))) return false;
  if (!owner.some((w) => OTHER_DOCUMENT.test(w))) return false;
  // Named apart by a definition of its own ('(the "Master Services Agreement")'); one defining it
  // as "the Agreement" makes it the agreement the document is about (an amendment's).
  const after = unitWords(e, c, 'after').slice(0, 8).join(' ');
  const defined = /\(\s*(?:the\s+)?["“']([^"”']+)["”']\s*\)/i.exec(after)?.[1];
  if (defined === undefined || /^(?:agreement|contract|lease)$/i.test(defined.trim())) return false;
  // Asked about that agreement by its own name ("When is the Supply Agreement dated?"), it is the answer.
  return !contentStems(defined).some((t) => e.ctx.query.terms.includes(t));
}
const OTHER_DOCUMENT = /^(?:agreement|contract|lease|order|deed|plan|letter|amendment|memorandum)s?$/i;

function anotherDocumentsDatesLast(e: Examined): Scored[] {
  if (e.ctx.query.kind !== 'date') return e.scored;
  const other = e.scored.map((s) => datesAnotherDocument(e, s.cand));
  if (!other.includes(true)) return e.scored;
  return [...e.scored.filter((_, i) => !other[i]), ...e.scored.filter((_, i) => other[i])];
}

/** "A or B? (true if A)": the two alternatives and the one that is a yes. */
const ALTERNATIVES = /^\s*(.+?)\s+or\s+(.+?)\s*\?\s*\(\s*(?:true|yes)\s+if\s+(.+?)\s*\)\s*$/i;

/**
 * A question offering two alternatives and saying which is a yes ("Mutual or one-way? (true if
 * mutual)", "Refund or sale? (true if refund)"): a clause naming one of them and not the other
 * answers it ("This Agreement is one-way: ..." is a no), whatever else it says.
 */
function alternativeNamed(prompt: string, clause: string): boolean | undefined {
  const m = ALTERNATIVES.exec(prompt);
  if (!m) return undefined;
  const [a, b, yes] = [m[1]!, m[2]!, m[3]!].map((w) => w.toLowerCase());
  if (yes !== a && yes !== b) return undefined;
  const says = (w: string) => new RegExp(`(?<![\\p{L}-])${escapeRegex(w)}(?![\\p{L}-])`, 'iu').test(clause);
  const [saysA, saysB] = [says(a!), says(b!)];
  if (saysA === saysB) return undefined;
  return saysA ? yes === a : yes === b;
}

/**
 * What a document writes, as stems, with the words related to each (the lexicon relates
 * "respond" to "response", though not "reply" to "respond": either way round counts).
 */
const writtenStems = new WeakMap<EngineDocument, Set<string>>();
function stemsWritten(doc: EngineDocument): Set<string> {
  let known = writtenStems.get(doc);
  if (!known) {
    const own = new Set(doc.pages.flatMap((p) => literalStems(p.text)));
    known = new Set(own);
    for (const t of own) for (const r of [...relatedStems(t), ...derivedStems(t)]) known.add(r);
    writtenStems.set(doc, known);
  }
  return known;
}

/** Whether the document writes a word or phrase (all its content words), or a word related to each. */
function mentions(doc: EngineDocument, words: string): boolean {
  const stems = contentStems(words);
  const written = stemsWritten(doc);
  return (
    stems.length > 0 &&
    stems.every((t) => written.has(t) || [...relatedStems(t), ...derivedStems(t)].some((r) => written.has(r)))
  );
}

/**
 * "A or B? (true if A)" where the document names only one of the two anywhere: a sales slip
 * that never says "refund" answers "Refund or sale? (true if refund)" with a no. Undefined when
 * it names both or neither.
 */
function alternativeInDocument(prompt: string, doc: EngineDocument): boolean | undefined {
  const m = ALTERNATIVES.exec(prompt);
  if (!m) return undefined;
  const [a, b, yes] = [m[1]!, m[2]!, m[3]!].map((w) => w.toLowerCase());
  if (yes !== a && yes !== b) return undefined;
  const [saysA, saysB] = [mentions(doc, a!), mentions(doc, b!)];
  if (saysA === saysB) return undefined;
  return saysA ? yes === a : yes === b;
}

/**
 * A yes/no question none of whose words the document writes, nor a word related to one ("Is
 * this a refund?" of a sales slip): no. One word written ("Does this receipt record a return?"
 * of a slip that says "Returns accepted until") leaves the question to the clauses.
 */
function neverMentioned(query: Query, doc: EngineDocument): boolean {
  const words = rawTokens(query.prompt).filter((w) => !STOPWORDS.has(w) && /\p{L}{3}/u.test(w));
  if (words.length === 0) return false;
  return !words.some((w) => mentions(doc, w));
}

/**
 * Asked for one end of a span ("Statement start date", "Period from", "Closing balance"), values
 * written as that end ("Period from 26/10", "Balance brought forward") rank first and values
 * written as the other end ("To 22/11") last, whatever else their captions share with the
 * question: "Period to" shares "period" with "Period from", and "Statement date" two words with
 * "Statement start date". Only dates and amounts are spans' ends.
 */
function askedEndFirst(e: Examined): Scored[] {
  if (e.group !== 'date' && e.group !== 'number') return e.scored;
  const q = e.ctx.query;
  // A bare caption asks by its preposition too ("Period from", "Valid to").
  const caption = !q.prompt.includes('?') && q.prompt.trim().split(/\s+/).length <= 4;
  const asked = q.phase ?? (caption ? phaseNamed(q.prompt) : null);
  if (!asked) return e.scored;
  // The end of a written range ("Dates 05/26/20 - 06/02/20") that the question asks for is that end.
  const written = e.scored.map((s) =>
    s.cand.picture ? null : s.cand.traits.rangeMatch ? asked : phaseWrittenOf(e.ctx, s.cand),
  );
  if (!written.includes(asked)) return e.scored;
  return [
    ...e.scored.filter((_, i) => written[i] === asked),
    ...e.scored.filter((_, i) => written[i] === null),
    ...e.scored.filter((_, i) => written[i] !== null && written[i] !== asked),
  ];
}

/**
 * A passage describing one category in full and another in part ("The parties wish to evaluate
 * a possible acquisition of all or part of the business": all of "Potential acquisition", two
 * words of three of "Evaluating a business relationship") is about the one it describes in full.
 */
function fullerDescriptionFirst(e: Examined): Scored[] {
  const top = e.scored[0];
  if (e.group !== 'categorical' || !top?.cand.traits.described || !top.cand.traits.partial) return e.scored;
  const fuller = e.scored.find(
    (s) =>
      s.cand.value !== top.cand.value &&
      s.cand.traits.described === 1 &&
      (s.cand.traits.partial ?? 0) < top.cand.traits.partial! &&
      s.cand.at.unit === top.cand.at.unit &&
      s.p >= top.p / 2,
  );
  return fuller ? [fuller, ...e.scored.filter((s) => s !== fuller)] : e.scored;
}

/**
 * "Which insurer provides the coverage?": a name holding the word asked for, or its root
 * ("Ashford Insurance Company"), names one, and ranks before names that do not ("Brückner
 * Office Solutions Corp.", the insured). Only for a noun naming a person or a body; words any
 * name may answer ("company", "party") say nothing of which.
 */
function namedAsAskedFirst(e: Examined): Scored[] {
  const named = namedAsAsked(e);
  if (!named || !e.scored.some(named)) return e.scored;
  return [...e.scored.filter(named), ...e.scored.filter((s) => !named(s))];
}

/** The test `namedAsAskedFirst` ranks by, or null when the question names no person or body after "which". */
function namedAsAsked(e: Examined): ((s: Scored) => boolean) | null {
  if (e.group !== 'text') return null;
  const m = /\b(?:which|what)\s+(\p{L}{3,})\b/iu.exec(e.ctx.query.prompt);
  // Only a noun naming who (a person or a body): "which street" is answered by no name.
  if (!m || GENERIC_NOUN.test(m[1]!) || !WHO_KINDS.has(nounKind(m[1]!) ?? '')) return null;
  const asked = stem(m[1]!.toLowerCase());
  // The word and its root ("insur" of "insurer"), not longer words made from it ("statement" of "state").
  const forms = new Set([asked, ...derivedStems(asked).filter((d) => d.length < asked.length)]);
  return (s: Scored) =>
    ((s.cand.traits.nameShape ?? 0) >= 0.5 || s.cand.traits.orgSuffix === 1) &&
    s.cand.text.split(/\s+/).length >= 2 &&
    // The word in the name, not in a caption read with it ("Carrier: Harbor Freight Lines LLC").
    !s.cand.text.includes(':') &&
    contentStems(s.cand.text).some((t) => forms.has(t));
}
const WHO_KINDS = new Set(['person', 'group']);
/** Nouns any name answers: they say nothing of which name. */
const GENERIC_NOUN =
  /^(?:company|companies|organi[sz]ation|party|parties|person|people|entity|business|firm|name|one|kind|type|form|document|is|was|are|were|does|do|did|has|have)$/i;

/** The ranking an answer is read from (training reads the scorer's own, see `examine`). */
function answering(e: Examined): Examined {
  let scored = e.scored;
  for (const rerank of RERANKINGS) scored = rerank({ group: e.group, ctx: e.ctx, scored });
  return { group: e.group, ctx: e.ctx, scored };
}
/** The answering rules over the ranking, in the order they apply. */
const RERANKINGS: ((e: Examined) => Scored[])[] = [
  (e) => selfCountedFirst(e.scored),
  (e) => personsFirst(e.scored),
  askedEndFirst,
  ownSubjectFirst,
  fullerDescriptionFirst,
  namedAsAskedFirst,
  anotherDocumentsDatesLast,
];

/** Pages read closely: retrieval picks the few most about the question, and the first page. */
const PAGES_READ = 4;

/** Pages whose best passage holding a value of the asked kind is read too, however they rank. */
const VALUE_PAGES = 2;

function pagesToRead(ctx: ScoringContext, cands: readonly TypedCandidate[]): Set<number> {
  const n = ctx.index.doc.pages.length;
  if (n <= PAGES_READ + 1) return new Set(Array.from({ length: n }, (_, i) => i));
  const best = new Array<number>(n).fill(0);
  for (const p of ctx.index.passages) best[p.page] = Math.max(best[p.page]!, ctx.scores[p.id]!);
  const ranked = best.map((s, i) => ({ s, i })).sort((a, b) => b.s - a.s || a.i - b.i);
  const pages = new Set([0, ...ranked.slice(0, PAGES_READ).map((r) => r.i)]);
  // "How long is the term?" is answered by a sentence holding a length of time; in a long
  // agreement the pages most about "terms" are often its definitions, and the sentence stating
  // the term sat on a page never read.
  const valueBest = new Array<number>(n).fill(-1);
  for (const c of cands) {
    if (!fitsKind(ctx.query, c)) continue;
    valueBest[c.at.page] = Math.max(valueBest[c.at.page]!, ctx.scores[c.at.unit.id] ?? 0);
  }
  const valueRanked = valueBest
    .map((s, i) => ({ s, i }))
    .filter((r) => r.s > 0)
    .sort((a, b) => b.s - a.s || a.i - b.i);
  for (const r of valueRanked.slice(0, VALUE_PAGES)) pages.add(r.i);
  return pages;
}

export const ANSWERABLE_FEATURES = [
  'pTop',
  'pSecond',
  'margin',
  'logitTop',
  'labelExact',
  'geoLeftExact',
  'geoAboveExact',
  'geoHeadingExact',
  'relExact',
  'assocMax',
  'confident',
  'candidates',
  'labelUnused',
  'ownLabelShort',
  'logitGap',
  'soleFit',
  'deadlineUnmet',
  'anchorSelf',
  'anchorOther',
  'contactUnasked',
  'zero',
] as const;

const AT = Object.fromEntries(FEATURES.map((f, i) => [f, i])) as Record<string, number>;

/** What the answerability model reads of one ranking (scored in ranked order, best first). */
export function answerInputs(scored: readonly { p: number; x: ArrayLike<number> }[]): number[] {
  const top = scored[0];
  if (!top) return ANSWERABLE_FEATURES.map(() => 0);
  const second = scored[1]?.p ?? 0;
  const f = (name: string) => top.x[AT[name]!] ?? 0;
  const values: Record<(typeof ANSWERABLE_FEATURES)[number], number> = {
    pTop: top.p,
    pSecond: second,
    margin: top.p - second,
    logitTop: logit(top.p),
    // How far the top stands out, whatever the scale: an unseen family's probabilities run low
    // altogether, while one candidate standing far above the rest still marks a stated value.
    logitGap: Math.min(12, logit(top.p) - logit(second)) / 12,
    labelExact: f('labelExact'),
    geoLeftExact: f('geoLeftExact'),
    geoAboveExact: f('geoAboveExact'),
    geoHeadingExact: f('geoHeadingExact'),
    relExact: f('relExact'),
    assocMax: f('assocMax'),
    confident: Math.min(1, scored.filter((s) => s.p > 0.5).length / 5),
    candidates: Math.log1p(scored.length) / 7,
    labelUnused: f('labelUnused'),
    ownLabelShort: f('ownLabelShort'),
    soleFit: f('soleFit'),
    // Asked by when, and the best candidate is not written as a limit (a letter's own date).
    deadlineUnmet: f('qDeadline') * (1 - f('deadlineCue')),
    // A length of time counted from some other event ("six months following the termination of
    // my employment") is that event's period: its standing out says little that the asked one is stated.
    anchorSelf: f('anchorSelf'),
    anchorOther: f('anchorOther'),
    contactUnasked: f('contactUnasked'),
    // A zero stands in a document for what is not charged ("VAT (0%) €0.00"): seldom the sum asked.
    zero: f('trait:zero'),
  };
  return ANSWERABLE_FEATURES.map((k) => values[k]);
}

/**
 * How well the learned label associations know this document's labels for the question, 0..1:
 * the strongest positive association of a label beside any candidate. A family training saw
 * labels its values the way the table learned; a new one mostly does not, and the same
 * probability is right less often there. Calibration reads it: measured on the real invoices,
 * a familiar family, right answers had got 0.4-0.5 (ECE 0.145 -> 0.055); on left-out
 * receipts the ECE was 0.180 with it and 0.192 without.
 */
export function familiarity(scored: readonly { x: ArrayLike<number> }[]): number {
  let best = 0;
  for (const s of scored) best = Math.max(best, s.x[ASSOC_MAX] ?? 0);
  return best / MAX_ASSOCIATION;
}
const ASSOC_MAX = AT.assocMax!;
/** Associations are log-odds clipped to ±3 (associations.ts). */
const MAX_ASSOCIATION = 3;

/** The probability the answer decision rests on: answerability when learned, else the top's. */
export function decisionProbability(m: ScorerModel['groups'][Group], scored: readonly Scored[]): number {
  if (scored.length === 0) return 0;
  return m.answerable ? probability(m.answerable, answerInputs(scored)) : scored[0]!.p;
}

/** The features the yes/no polarity model reads, from the clause a yes/no answer rests on. */
export function polarityInputs(
  e: Examined,
  top: Scored | undefined,
  valueFound: number,
): Record<string, number> {
  const t = top?.cand.traits ?? {};
  return {
    pTop: top?.p ?? 0,
    negation: t.negation ?? 0,
    checkedYes: t.checkedYes ?? 0,
    checkedNo: t.checkedNo ?? 0,
    queryNegated: e.ctx.query.negated ? 1 : 0,
    valueFound,
    valueQuestion: VALUE_KINDS.includes(e.ctx.query.kind) ? 1 : 0,
  };
}

/** For "does it state a term / date / amount?": the best probability of such a value. */
export function valueFoundFor(query: Query, doc: EngineDocument, model: ScorerModel): number {
  if (!VALUE_KINDS.includes(query.kind)) return 0;
  const e = examine(valueColumn(query), query, doc, model);
  // Whether the document states such a value is what the answerability model learned to tell.
  return decisionProbability(model.groups[e.group], e.scored);
}

/** The column that asks for a value of the query's kind: a date, an amount, else a quote. */
function valueColumn(query: Query): EngineColumn {
  const outputType = query.kind === 'date' ? 'date' : query.kind === 'money' ? 'number' : 'text_quote';
  return { prompt: query.prompt, outputType, config: null, isCompositional: false, locale: null };
}

/** How a yes/no "does it state X?" question reads: the search for X and how sure it is X is stated. */
export interface Existence {
  e: Examined;
  m: ScorerModel['groups'][Group];
  decision: number;
  /** The decision against its threshold, as a probability: 0.5 is the threshold itself. */
  margin: number;
}

export function existenceOf(query: Query, doc: EngineDocument, model: ScorerModel): Existence | null {
  const target = existenceTarget(query.prompt);
  if (!target) return null;
  // "A fixed term or duration" is stated when either is: each alternative is searched for on its
  // own, as its own question, and the one most surely stated answers. (Searched together, each
  // sentence matched half the words, and a stated "two years" looked unstated.)
  let best: Existence | null = null;
  for (const alternative of alternativesOf(target)) {
    const asked = analyzeQuery(alternative);
    if (!VALUE_KINDS.includes(asked.kind)) continue;
    const column = valueColumn(asked);
    const { e, decision } =
      asked.kind === 'duration'
        ? examineTerms(column, asked, doc, model, ownPeriods)
        : decided(examine(column, asked, doc, model), model);
    const m = model.groups[e.group];
    const found = { e, m, decision, margin: sigmoid(logit(decision) - logit(m.threshold)) };
    if (!best || found.margin > best.margin) best = found;
  }
  return best;
}

/**
 * Whether a document states a length of time is read from the lengths it counts from what the
 * question asks about or from nothing: "six months following the termination of my employment"
 * is the period of a restraint after the employment, no duration of the agreement, unless the
 * question names that event (then the length counts from what it asks about, see anchorOf).
 */
const ownPeriods = (e: Examined): Examined => ({
  ...e,
  scored: e.scored.filter((s) => s.x[AT.anchorOther!] !== 1),
});

/** The whole target, then its alternatives when it names several ("a term or duration"). */
function alternativesOf(target: string): string[] {
  const parts = target.split(/\s*(?:,\s*)?\bor\b\s*/).filter((p) => /\p{L}{3}/u.test(p));
  return parts.length > 1 && parts.length <= 4 ? [target, ...parts] : [target];
}

/**
 * "Does the agreement state a fixed term?": the search that answers "What is the fixed term?",
 * read as how likely the term is stated at all.
 */
function existenceAnswer(query: Query, doc: EngineDocument, model: ScorerModel): DocumentAnswer | null {
  const x = existenceOf(query, doc, model);
  if (!x) return null;
  const top = x.e.scored[0];
  // Yes when X is more likely stated than not: P(stated), learned on held-out questions from how
  // far the search clears the value's own threshold. The bare threshold answered yes whenever
  // another value of the kind was there (an invoice's own number, asked for its PO number).
  // On the left-out families' 128 such questions: 83 right at the bare threshold, 98 this way,
  // 90 answering yes when the value's own confidence was 0.5 or more. On dev's 19: 14, 17, 15.
  const pYes = model.existence
    ? calibrate(model.existence, x.margin)
    : x.margin >= 0.5
      ? confidenceOf(x.m.answered, x.decision, x.e)
      : 1 - confidenceOf(x.m.unanswered, x.decision, x.e);
  // A document's one length of time of its own is stated, as "How many months does it last?"
  // answers it (durationAnswer): "The obligations of this Agreement last for five (5) years"
  // scored under the learned bar.
  const sole = pYes < 0.5 && x.e.ctx.query.kind === 'duration' ? soleOwnPeriod(x.e) : undefined;
  const value = top !== undefined && (pYes >= 0.5 || sole !== undefined);
  return {
    status: 'SUCCESS',
    value: { type: 'boolean', value },
    // Yes cites where the value is stated; no cites the passage most about it.
    citations: value ? cite(x.e, firstMention(x.e.scored, sole ?? top)) : fallbackCitation(x.e),
    // A yes or no is answered as at least as likely as its opposite: a yes by the sole-period rule
    // alone is, by P(stated), a toss (0.5); where nothing of the kind is written (an agreement
    // running until notice), no is the answer whatever P(stated) read of the ranking before the terms.
    confidence: round3(Math.max(0.5, value ? pYes : 1 - pYes)),
    score: top?.p ?? 0,
    empty: false,
  };
}

/**
 * "How many months does the term last?" asks for a duration in a unit: the term is found as a
 * term ("two (2) years"), by the same decision that answers "How long is the term?", and its
 * length converted.
 */
function durationAnswer(
  column: EngineColumn,
  query: Query,
  doc: EngineDocument,
  model: ScorerModel,
): DocumentAnswer | null {
  const unit = query.unit;
  if (query.kind !== 'duration' || !unit || unit === 'percent') return null;
  const { e, decision, read } = examineTerms(
    { ...column, outputType: 'text_quote', config: null },
    query,
    doc,
    model,
  );
  const m = model.groups[e.group];
  // No length of time written anywhere: nothing states how long. (A bare figure under a
  // caption such as "Term (months)" is missed; the number reader answered page numbers.)
  if (e.scored.length === 0) return empty('number', m, read ?? 0, e);
  const sole = decision < m.threshold ? soleOwnPeriod(e) : undefined;
  const top = sole ?? e.scored[0]!;
  const d = termIn(e, top);
  if (!d || (decision < m.threshold && !sole)) return empty('number', m, read ?? decision, e);
  return {
    status: 'SUCCESS',
    value: { type: 'number', value: durationIn(d.value, unit) },
    citations: cite(e, firstMention(e.scored, top)),
    // Chosen by the sole-value rule: that rule's own precision on held-out questions.
    confidence: round3(
      sole && m.soleRight !== undefined ? m.soleRight : confidenceOf(m.answered, decision, e),
    ),
    score: top.p,
    empty: false,
  };
}

/** A question that can only be answered by a length of time. */
const HOW_LONG = /\bhow long\b/i;

/**
 * "How long is the term?" quotes a length of time, found as "How many months does the term
 * last?" finds it: a document that writes none states none. (Ranked among every candidate, a
 * contract without a term answered its parties' names, "Employee and Employer".)
 */
function lengthAnswer(
  column: EngineColumn,
  query: Query,
  doc: EngineDocument,
  model: ScorerModel,
): DocumentAnswer {
  const { e, decision, read } = examineTerms(column, query, doc, model, answering);
  const m = model.groups[e.group];
  const sole = decision < m.threshold ? soleOwnPeriod(e) : undefined;
  const top = sole ?? e.scored[0];
  const d = top && termIn(e, top);
  if (!top || !d || (decision < m.threshold && !sole)) return empty('text_quote', m, read ?? decision, e);
  return {
    status: 'SUCCESS',
    value: { type: 'text_quote', value: d.text },
    citations: cite(e, firstMention(e.scored, top)),
    // Chosen by the sole-value rule: that rule's own precision on held-out questions.
    confidence: round3(
      sole && m.soleRight !== undefined ? m.soleRight : confidenceOf(m.answered, decision, e),
    ),
    score: top.p,
    empty: false,
  };
}

/**
 * The document's one length of time of its own: counted from no other event, no notice's length,
 * and every mention the same ("five (5) years"). Asked how long the agreement runs, that length
 * is stated, however low the ranking put it (a plain services agreement read as unstated when
 * its term sat under a heading no caption feature reads).
 */
function soleOwnPeriod(e: Examined): Scored | undefined {
  const own = e.scored.filter((s) => s.cand.traits.isDuration === 1 && s.x[AT.anchorOther!] !== 1);
  if (own.length === 0) return undefined;
  const key = valueKey(own[0]!.cand);
  return own.every((s) => valueKey(s.cand) === key) ? own[0] : undefined;
}

/**
 * The duration written inside a candidate's words, if any. A notice's length ("thirty (30) days
 * written notice") is no term unless notice is asked: an agreement running until either party
 * gives notice states none.
 */
function termIn(e: Examined, s: Scored) {
  const at = s.cand.at;
  const asked = noticeAsked(e);
  return durationCandidates(e.ctx.index).find(
    (c) =>
      c.at.page === at.page &&
      c.at.unit.id === at.unit.id &&
      c.at.from >= at.from &&
      c.at.to <= at.to &&
      (asked || !isNoticePeriod(e.ctx.index, c)),
  );
}

/**
 * How likely a length is stated where every length written is another thing's: as unlikely as a
 * search reads at its weakest, not 0, which the existence calibration (a logistic fit on its logit)
 * would read as an outlier: with 0, a retrain's fit flattened from 1.69 to 0.55.
 */
const NONE_STATED = 0.01;

/**
 * A text search for a length of time, among the candidates that hold one: a sentence about
 * the term ("does not renew at the end of the initial term") is no answer to how long it is.
 * Whether a term is stated at all is decided on every candidate, as "What is the term?" is:
 * the answerability model learned on whole rankings, and one stripped of its rivals looked
 * stated. (Decided on the terms alone, dev agreements stating no term answered 12 months.)
 */
function examineTerms(
  column: EngineColumn,
  query: Query,
  doc: EngineDocument,
  model: ScorerModel,
  read: (e: Examined) => Examined = (e) => e,
): { e: Examined; decision: number; read?: number } {
  const read0 = withoutNotices(read(examine(column, query, doc, model)));
  const own = withoutOthersLengths(read0);
  const e = { ...own, scored: ownSubjectFirst(own) };
  const terms = { ...e, scored: e.scored.filter((s) => termIn(e, s) !== undefined) };
  // Whether a length is stated is decided on the ranking as the scorer read it, or without the
  // lengths of other things when that reads surer; when every length is another thing's, the
  // document states none.
  const none = terms.scored.length === 0 && read0.scored.some((s) => termIn(read0, s) !== undefined);
  const filtered = decided(withoutOthersLengths(read0, false), model).decision;
  const decision = Math.max(decided(read0, model).decision, filtered);
  // The null's confidence still reads the ranking as the scorer did: whose a length is, is read
  // from a sentence's words and can be misread (dev: 4 of 6 such nulls right).
  return none
    ? { e: terms, decision: Math.min(decision, NONE_STATED), read: decision }
    : { e: terms, decision };
}

/**
 * A length of time asked for is no notice's length (unless notice is asked): "sixty (60) days
 * prior written notice" leaves the ranking before the decision reads it, or a contract stating
 * "five (5) years" looked unstated behind its notice period.
 */
function withoutNotices(e: Examined): Examined {
  if (noticeAsked(e)) return e;
  return {
    ...e,
    scored: e.scored.filter((s) => !(s.cand.traits.isDuration && isNoticePeriod(e.ctx.index, s.cand))),
  };
}

/**
 * Asked for the document's own length ("the term of this agreement", "Term in months"): a length
 * its sentence gives something else ("The obligations of confidentiality ... shall remain in
 * effect for 3 years") is not it. An agreement that states only how long its secrecy lasts
 * states no term.
 */
function withoutOthersLengths(e: Examined, anchored = true): Examined {
  if (!asksOwnLength(e.ctx.query)) return e;
  const others = e.scored.filter(
    (s) => subjectOf(e, s.cand) === 'other' || (anchored && s.x[AT.anchorOther!] === 1),
  );
  // A longer reading holding such a length (its whole sentence) is that length too.
  const taken = new Set(others.flatMap((s) => wordKeys(s.cand)));
  return { ...e, scored: e.scored.filter((s) => !wordKeys(s.cand).some((k) => taken.has(k))) };
}

/** A question naming nothing but a length ("the term of this agreement", "Term in months"). */
const asksOwnLength = (query: Query) =>
  query.terms.length > 0 && query.terms.every((t) => LENGTH_STEM.test(t));

const noticeAsked = (e: Examined) => (e.ctx.query.weights.get(NOTICE) ?? 0) >= 0.8;

function decided(e: Examined, model: ScorerModel): { e: Examined; decision: number } {
  return { e, decision: decisionProbability(model.groups[e.group], e.scored) };
}

const round3 = (x: number) => Math.round(Math.max(0, Math.min(1, x)) * 1000) / 1000;

export function answerDocument(
  column: EngineColumn,
  query: Query,
  doc: EngineDocument,
  model: ScorerModel,
): DocumentAnswer {
  const type = column.outputType;
  const hasText = doc.pages.some((p) => p.words.length > 0);
  if (type === 'categorical' && !column.config?.categories?.length) return error('column has no categories');
  if (doc.pages.length === 0) return error('the document has no pages');
  if (!hasText && type !== 'image' && type !== 'image_list') return error('no readable text in the document');
  // Answered by a search for the value asked about, not by reading this column's own candidates.
  const byValue =
    type === 'number'
      ? durationAnswer(column, query, doc, model)
      : type === 'boolean'
        ? existenceAnswer(query, doc, model)
        : type === 'text_quote' && (HOW_LONG.test(query.prompt) || query.kind === 'duration')
          ? lengthAnswer(column, query, doc, model)
          : null;
  if (byValue) return byValue;
  const e = answering(examine(column, query, doc, model));
  const m = model.groups[e.group];
  const top = e.scored[0];
  switch (type) {
    case 'image':
    case 'image_list':
      return regions(e, model, type);
    case 'boolean': {
      const inputs = polarityInputs(e, top, valueFoundFor(query, doc, model));
      const pYes = probability(
        model.polarity,
        model.polarityFeatures.map((f) => inputs[f] ?? 0),
      );
      // "Mutual or one-way? (true if mutual)": the clause naming one of the two alternatives answers.
      // Failing that, the alternatives as the whole document names them; and a question about
      // something the document never mentions ("Is this a refund?" of a sales slip) is a no.
      const named =
        (top ? alternativeNamed(query.prompt, top.cand.text) : undefined) ??
        alternativeInDocument(query.prompt, doc) ??
        (neverMentioned(query, doc) ? false : undefined);
      const value = named ?? pYes >= 0.5;
      // Yes or no, the answer rests on the clause most about the question.
      const citations = top ? cite(e, top.cand) : fallbackCitation(e);
      return {
        status: 'SUCCESS',
        value: { type, value },
        citations,
        confidence: round3(
          named === undefined ? (value ? pYes : 1 - pYes) : Math.max(0.5, value ? pYes : 1 - pYes),
        ),
        score: top?.p ?? 0,
        empty: false,
      };
    }
    case 'list_scalar': {
      const items = listItems(e, query, m);
      if (items.length === 0) return empty(type, m, top?.p ?? 0, e);
      const best = items[0]!;
      // Items in the order the document gives them, as a reader lists them.
      items.sort(
        (a, b) =>
          a.cand.at.page - b.cand.at.page ||
          a.cand.at.unit.id - b.cand.at.unit.id ||
          a.cand.at.from - b.cand.at.from,
      );
      return {
        status: 'SUCCESS',
        value: { type, value: items.map((s) => String(s.cand.value)) },
        citations: items.flatMap((s) => cite(e, s.cand)),
        confidence: round3(confidenceOf(m.answered, best.p, e, Math.min(...items.map((s) => s.p)))),
        score: best.p,
        empty: false,
      };
    }
    default: {
      const decision = decisionProbability(m, e.scored);
      const digits = query.tail !== null ? lastDigitsShown(e) : undefined;
      // Asked for a card's or an account's last digits, and the document shows none as such.
      if (digits === null) return empty(type, m, decision, e);
      const sole = digits ?? soleAnswer(e.scored, query);
      const ranked = sole ?? top;
      // A name saying it is what is asked ("Greenview Savings Bank" for "Which bank ...?") is stated.
      const vouched =
        ranked !== undefined && (captionedAsAsked(ranked) || namedAsAsked(e)?.(ranked) === true);
      if (!ranked || (decision < m.threshold && !sole && !vouched)) {
        return empty(type, m, decision, e);
      }
      const best = type === 'text_quote' ? (fullNameOf(e.scored, ranked) ?? ranked) : ranked;
      if (type === 'date' && query.deadline && !writtenAsLimit(e, best)) return empty(type, m, decision, e);
      const calibrated = confidenceOf(m.answered, decision, e);
      return {
        status: 'SUCCESS',
        value: { type, value: best.cand.value } as AnswerValue,
        citations: cite(e, firstMention(e.scored, best)),
        // Chosen by the sole-value rule: that rule's own precision on held-out questions, which
        // the ranking's probability (low exactly when the rule is needed) does not measure.
        confidence: round3(sole && m.soleRight !== undefined ? m.soleRight : calibrated),
        score: best.p,
        empty: false,
      };
    }
  }
}

/**
 * Asked by when something must happen, a date answers only when written as a limit: after "by",
 * "until", "due", "ends on", under a caption saying so, or under any caption naming what is
 * asked. A letter's own date, printed alone at its head, is no reply-by date.
 */
function writtenAsLimit(e: Examined, s: Scored): boolean {
  if (LIMIT_EVIDENCE.some((i) => (s.x[i] ?? 0) > 0)) return true;
  const at = s.cand.at;
  const page = e.ctx.index.doc.pages[at.page]!;
  const before = at.unit.words.slice(Math.max(0, at.from - 4), at.from).map((w) => page.words[w]?.text ?? '');
  if (ENDS.test(before.join(' '))) return true;
  const near = nearbyOf(e.ctx.index, at);
  return [near.left, near.above, near.columnHead].some(
    (caption) => DEADLINE_CUE.test(caption) || ENDS.test(caption),
  );
}
const LIMIT_EVIDENCE = ['deadlineCue', 'label', 'geoLeft', 'geoAbove', 'labelExact'].map((f) => AT[f]!);
/** Words that make a date the end of something ("terminates on", "ends on", "lapses on"). */
const ENDS = /\b(?:end(?:s|ed|ing)?|terminat\w*|ceas\w*|laps\w*)\b/i;
const CONTACT_FITS = AT['qContact*fits']!;
const SOLE_FIT = AT.soleFit!;

/**
 * Asked for an e-mail address, a telephone number or a website, and the document writes exactly
 * one value of that shape: that value is the answer, stated, wherever the ranker put it. (A
 * retrain ranked a letter's telephone number above its only e-mail address, in its footer, and
 * left the address under the threshold, on 3 of 11 seeds of the contacts test.)
 */
function soleContact<T extends { x: ArrayLike<number> }>(scored: readonly T[]): T | undefined {
  return scored.find((s) => s.x[CONTACT_FITS] === 1 && s.x[SOLE_FIT] === 1);
}

/**
 * Asked for a sum of money, and the ranker's first choice is the one sum the document writes
 * (a letter that mentions "USD 5,554.79" and no other amount): that sum is stated. The
 * answerability model learned "not stated" from the low scores an unseen family's wording
 * gets, though nothing else in the document could be the answer.
 */
function soleAmount<T extends { x: ArrayLike<number> }>(scored: readonly T[], query: Query): T | undefined {
  const top = scored[0];
  return query.kind === 'money' && top?.x[SOLE_FIT] === 1 ? top : undefined;
}

/**
 * Asked how many of a unit ("How many kWh were used?"), and the document writes one figure in
 * that unit or under a caption naming it ("Usage (kWh)"): that figure is the count, however an
 * unseen family's wording scores it.
 */
function soleInUnit<T extends { x: ArrayLike<number>; cand: TypedCandidate }>(
  scored: readonly T[],
): T | undefined {
  const top = scored[0];
  if (!top?.cand.traits.unitAsked) return undefined;
  const key = valueKey(top.cand);
  return scored.every((s) => valueKey(s.cand) === key) ? top : undefined;
}

/**
 * Asked for the last digits of a card or an account ("Card ending in", "Bank account last 4"):
 * documents show them behind a mask ("****0851", "XXXX 4411") or after words saying so
 * ("card ending 4411"), and those digits answer, however an unseen family's wording ranked them.
 * A figure of as many digits shown any other way (a street number, a time) is no card's: null
 * when nothing is shown as last digits.
 */
function lastDigitsShown(e: Examined): Scored | null {
  const masked = e.scored.find((s) => s.x[TAIL_MASKED] === 1);
  if (masked) return masked;
  const page = (s: Scored) => e.ctx.index.doc.pages[s.cand.at.page]!;
  const said = e.scored.find((s) => {
    if (s.x[TAIL_FITS] !== 1) return false;
    const at = s.cand.at;
    const before = at.unit.words
      .slice(Math.max(0, at.from - 3), at.from)
      .map((w) => page(s).words[w]?.text ?? '');
    return ENDING_WORDS.test(before.join(' '));
  });
  return said ?? null;
}
const TAIL_MASKED = AT['qTail*masked']!;
const TAIL_FITS = AT['qTail*fits']!;
/** Words that introduce a number's last digits: "ending (in)", "ends with", "last 4". */
const ENDING_WORDS = /\b(?:ending|ends|last)\b/i;

/**
 * The first-ranked value sits under, beside or after a caption saying all the question says
 * ("Reason for request" over the reason): a form's field asked in its own words is answered
 * by what fills it, however low an unseen family's wording scored it.
 */
function captionedAsAsked(s: Scored): boolean {
  return OWN_LABEL.some((i) => s.x[i] === 1);
}

/** The answer the sole-value rules take (a contact, a sum, a count in a unit), whatever its probability; training calibrates it. */
export function soleAnswer<T extends { x: ArrayLike<number>; cand: TypedCandidate }>(
  scored: readonly T[],
  query: Query,
): T | undefined {
  return soleContact(scored) ?? soleAmount(scored, query) ?? soleInUnit(scored);
}

/**
 * Where a value is cited when the document states it more than once: its first strong
 * mention in reading order (the letterhead, not the remittance line on the last page).
 */
/** A courtesy title before a surname ("Mr. Carraway", "Dr Okafor"). */
const HONORIFIC = /^(?:Mr|Mrs|Ms|Miss|Mx|Dr|Prof|Sir|Dame|Herr|Frau|Mme|M)\.?$/;

/**
 * A person named by title and surname ("Dear Mr. Carraway,") whom the document also names in
 * full ("Yevgenia Carraway" over the address): the answer is the full name, as a reader copies it.
 */
function fullNameOf(scored: readonly Scored[], best: Scored): Scored | undefined {
  const words = best.cand.text.replace(/[,;:]+$/, '').split(/\s+/);
  if (words.length !== 2 || !HONORIFIC.test(words[0]!)) return undefined;
  const surname = words[1]!;
  return scored.find((s) => {
    const w = s.cand.text.replace(/[,;:]+$/, '').split(/\s+/);
    return (
      s.cand.source === 'name' &&
      w.length >= 2 &&
      w.length <= 4 &&
      !HONORIFIC.test(w[0]!) &&
      w.at(-1) === surname &&
      w.every((x) => /^\p{Lu}/u.test(x)) &&
      !s.cand.traits.orgSuffix
    );
  });
}

function firstMention(scored: Scored[], top: Scored): TypedCandidate {
  const key = valueKey(top.cand);
  let first = top;
  for (const s of scored) {
    if (s.p < top.p * 0.5) break;
    if (valueKey(s.cand) !== key) continue;
    const a = s.cand.at;
    const b = first.cand.at;
    if (a.page < b.page || (a.page === b.page && a.unit.id < b.unit.id)) first = s;
  }
  return first.cand;
}

function cite(e: Examined, c: TypedCandidate): Citation[] {
  const page = e.ctx.index.doc.pages[c.at.page]!;
  const citation = citeWords(e.ctx.index.doc.fileId, page, c.at.unit.words.slice(c.at.from, c.at.to + 1));
  return citation ? [citation] : [];
}

/** The passage most about the question, when no candidate exists to cite. */
function fallbackCitation(e: Examined, onPage?: number): Citation[] {
  const index = e.ctx.index;
  const best = topPassages(index, e.ctx.scores, 50).find(
    (s) => onPage === undefined || s.passage.page === onPage,
  );
  const passage = best?.passage ?? index.units.find((u) => onPage === undefined || u.page === onPage);
  if (!passage) return [];
  const words = passage.words.slice(0, 40);
  const c = citeWords(index.doc.fileId, index.doc.pages[passage.page]!, words);
  return c ? [c] : [];
}

function regions(e: Examined, model: ScorerModel, type: 'image' | 'image_list'): DocumentAnswer {
  const m = model.groups.image;
  const doc = e.ctx.index.doc;
  const pictures = e.scored.filter((s) => s.cand.picture);
  if (pictures.length === 0) {
    // No picture objects (a scan): the page most about the question, as a whole.
    const [best] = topPassages(e.ctx.index, e.ctx.scores, 1);
    const pi = best ? best.passage.page : 0;
    const region: Region = {
      fileId: doc.fileId,
      page: doc.pages[pi]!.page,
      box: null,
      caption: best ? best.passage.text.slice(0, 200) : `page ${doc.pages[pi]!.page}`,
    };
    return {
      status: 'SUCCESS',
      value: [region],
      citations: fallbackCitation(e, pi),
      confidence: round3(best ? 0.2 : 0.1),
      score: 0,
      empty: false,
    };
  }
  // A caption sharing only whose picture is asked ("Signature of applicant", asked for the
  // applicant's photo) labels another picture of that owner: one captioned by the thing asked
  // ("Affix photo") answers before it.
  const owned = (s: Scored) => captionShares(s.cand.picture!.caption ?? '', e.ctx.query);
  const asked = owned(pictures[0]!) === 'owner' ? pictures.find((s) => owned(s) === 'asked') : undefined;
  const top = asked ?? pictures[0]!;
  const chosen = type === 'image' ? [top] : pictures.filter((s, i) => i === 0 || s.p >= m.threshold);
  const toRegion = (s: Scored): Region => ({
    fileId: doc.fileId,
    page: s.cand.picture!.page,
    box: s.cand.picture!.box,
    caption: s.cand.picture!.caption || 'picture',
  });
  // Each region cites its page: its caption where there is one, else the words nearest it.
  const citations = chosen.flatMap((s) =>
    s.cand.picture!.captionAt ? cite(e, s.cand) : fallbackCitation(e, s.cand.picture!.page - 1),
  );
  return {
    status: 'SUCCESS',
    value: chosen.map(toRegion),
    citations,
    confidence: round3(confidenceOf(m.answered, top.p, e)),
    score: top.p,
    empty: false,
  };
}

/** A calibrated confidence for one question on one document, which reads how familiar its labels are. */
function confidenceOf(c: Platt, p: number, e: Examined, weakest = p): number {
  return calibrate(c, p, familiarity(e.scored), weakest);
}

function empty(
  type: Exclude<EngineColumn['outputType'], 'image' | 'image_list'>,
  m: ScorerModel['groups'][Group],
  pTop: number,
  e: Examined,
): DocumentAnswer {
  return {
    status: 'SUCCESS',
    value: { type, value: null },
    citations: [],
    confidence: round3(confidenceOf(m.unanswered, pTop, e)),
    score: 0,
    empty: true,
  };
}

function error(statusText: string): DocumentAnswer {
  return { status: 'ERROR', statusText, value: null, citations: [], confidence: null, score: 0, empty: true };
}
