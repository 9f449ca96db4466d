import { contentStems, rawTokens, STOPWORDS, stem } from '../text/tokenize.ts';
import { englishWords, translationsOf } from '../text/translations.ts';
import { type NounKind, namesWriting, nounKind } from './nouns.ts';
import { askedSide, counterpartsOf, type Side } from './roles.ts';
import { derivedStems, fullWordsOf, relatedStems, shorthandOf } from './synonyms.ts';

export type AnswerKind = 'duration' | 'date' | 'money' | 'identifier' | 'entity' | 'place' | 'span';
/** A contact detail: an e-mail address, a telephone or fax number, a website. */
export type Contact = 'email' | 'phone' | 'web';

export interface Query {
  prompt: string;
  /** Stem → weight: 1 for the prompt's own words, 0.35 for related words from the lexicon. */
  weights: Map<string, number>;
  /** The prompt's own content stems, in order. */
  terms: string[];
  /** For ranges (periods, schedules): which end the prompt asks for. */
  rangeEnd: 'start' | 'end' | null;
  /**
   * Which end of a span the question asks for by its words alone ("opening balance", "when does
   * the period end"); unlike rangeEnd, never by "first" or "last" ("the last payment" is the latest).
   */
  phase: Phase | null;
  /** The question asks by when something must happen or stops holding (a deadline, an expiry). */
  deadline: boolean;
  /** "How many months" etc.: the unit a number answer is wanted in. */
  unit: 'days' | 'weeks' | 'months' | 'years' | 'percent' | null;
  /** What shape of answer the question's own wording asks for. */
  kind: AnswerKind;
  negated: boolean;
  /** Stems the prompt rules out ("the seller, not the customer"): a value labelled so is not it. */
  excluded: Set<string>;
  /** Stems of what the answer includes or leaves out ("tax" of "the total, including tax"): a part, not the answer. */
  qualifiers: Set<string>;
  /** The side of an exchange asked for (roles.ts): 1 the issuing side, -1 the receiving side, 0 neither. */
  role: Side;
  /** Words naming the other side of the relation asked about ("insured" for "insurer"): roles.ts counterpartsOf. */
  counterparts: ReadonlySet<string>;
  /**
   * What learned label associations are looked up by: the terms less the word naming the
   * answer's kind, plus the side asked for. "Name of the seller" and "name of the buyer" share
   * "name", and every label over a name answers some question with "name" in it; the side tells
   * "Bill to" apart where the shared word cannot.
   */
  focus: string[];
  /** What the first noun of the question naming a person, group or place names ("which agency"). */
  asks: NounKind | null;
  /** The contact detail asked for ("the applicant's email address", "customer service phone"). */
  contact: Contact | null;
  /**
   * The question asks for the last digits of a number ("last four digits of the card", "card
   * ending in"): how many (0 when not said). Documents print them masked ("****4411").
   */
  tail: number | null;
}

export type Phase = 'start' | 'end';
const PHASE_ASKED: readonly [Phase, RegExp][] = [
  ['start', /\b(?:start(?:s|ing)?|begin(?:s|ning)?|commence\w*|opening|initial|inception)\b/],
  ['end', /\b(?:end(?:s|ed|ing)?|final|until|through|expir\w*|expiry|closing)\b/],
];
/**
 * Words documents write one end of a span with, related to a question asking for that end: a
 * statement opens with the balance "brought forward" or "previous", a term "commences" and
 * "expires". The other end's words are opposites (features.ts).
 */
const PHASE_RELATED: Record<Phase, readonly string[]> = {
  start: ['start', 'begin', 'commence', 'commencement', 'opening', 'initial', 'brought', 'previous', 'prior'],
  end: ['end', 'close', 'closing', 'expire', 'expiry', 'expiration', 'final', 'carried', 'new'],
};
function phaseAsked(text: string): Phase | null {
  const hits = PHASE_ASKED.filter(([, re]) => re.test(text));
  return hits.length === 1 ? hits[0]![0] : null;
}

export const RELATED_WEIGHT = 0.35;
/** A derived form of a prompt word ("inspector" for "inspect") weighs nearly as the word itself. */
const DERIVED_SHARE = 0.8;
const FALLBACK_WEIGHT = 0.5;
/**
 * Words that say what an answer includes or leaves out ("including tax", "net of fees"), or
 * what an amount is reckoned against ("before deductions", "after tax"), which it is not.
 */
const QUALIFIER =
  /\b(?:including|incl\.?|inclusive of|excluding|excl\.?|exclusive of|net of|(?:before|after)(?=\s+(?:any\s+)?(?:tax(?:es)?|deductions?|vat|withholding|discounts?)\b))\s+([a-z][a-z' -]*)/g;
const QUALIFIER_WEIGHT = 0.5;
/**
 * A generic actor after the verb's auxiliary ("must a party give", "may either party
 * terminate", "does any employee"): who acts in general, not what is asked. Every clause of an
 * agreement names "either party", so the word matched everywhere and drowned the notice period.
 */
const GENERIC_ACTOR =
  /\b(?:must|should|shall|does|do|did|will|would|can|could|may|might)\s+(?:a|an|any|each|either|every|neither)\s+([a-z]+)\b/g;
const GENERIC_ACTOR_WEIGHT = 0.5;
/** A conditional fallback: "If the form has no case number, give its file reference." */
const FALLBACK =
  /\bif\b[^.?,]*\b(?:no|not|none|without|missing|absent|lacks?)\b[^.?]*?,\s*(?:then\s+)?(?:give|use|return|answer with|report|take)\b([^.?]*)[.?]?/g;

/** Wording that asks for a deadline or an end of validity: "by when", "reply-by date", "due", "expires". */
const DEADLINE_ASKED =
  /\bby when\b|\buntil when\b|\bdeadline\b|\bdue\b|\w-by\b|\b(?:no|not) later than\b|\blast day\b|\bexpir\w*|\bvalid (?:until|through|to)\b|\b(?:must|should|needs? to|has to|have to)\b[^?.]*\bby\b/;

/** How questions name a contact detail. */
const CONTACT_ASKED: readonly [Contact, RegExp][] = [
  ['email', /\be-?mails?\b/],
  ['web', /\bweb ?sites?\b|\bweb (?:address|page)\b|\burls?\b|\bhome ?page\b/],
  ['phone', /\b(?:tele)?phones?\b|\btel\b|\bfax\b|\bmobile\b|\bhotline\b/],
];

const COUNT_WORDS: Record<string, number> = { two: 2, three: 3, four: 4, five: 5, six: 6 };
/** "the last four digits", "last 4", "4 digits", "ending in". */
const TAIL_ASKED =
  /\blast (\d|two|three|four|five|six)\b(?! (?:days|weeks|months|years|items|lines|pages)\b)|\b(\d|two|three|four|five|six) digits\b|\bending (?:in|with)\b/;

function tailAsked(core: string): number | null {
  const m = core.match(TAIL_ASKED);
  if (!m) return null;
  const n = m[1] ?? m[2];
  return n === undefined ? 0 : (COUNT_WORDS[n] ?? Number(n));
}

/** The stem of one who does what `verb` names: inspect → inspector, approv → approver, sign → signatori. */
const isAgentNoun = (verb: string, derived: string) =>
  derived.startsWith(verb) && /^(?:e?r|or|ori|ist|ant|ent)$/.test(derived.slice(verb.length));

export function analyzeQuery(prompt: string): Query {
  const lower = prompt.toLowerCase();
  // Only the question itself, not formatting instructions ("Answer as YYYY-MM-DD", "e.g. ...").
  const core = lower
    .replace(/\banswer (?:as|in|with)\b[^.?]*[.?]?/g, ' ')
    .replace(/\((?:e\.g\.|for example|eg)[^)]*\)/g, ' ')
    .replace(/\bleave (?:it )?(?:empty|blank)[^.?]*[.?]?/g, ' ')
    .replace(/\byyyy-mm-dd\b/g, ' ')
    // "How long does the term last?": the verb asks for a duration; it is no word to look for,
    // nor the end of a range.
    .replace(
      /\b(how (?:long|many (?:days|weeks|months|years))\b[^?.]*?)\blasts?\b(?=\s*(?:[?.!,]|$|for\b))/g,
      '$1 ',
    );
  // "not the customer", "other than the buyer": words that name what is NOT asked.
  const excluded = new Set<string>();
  const ruledOut =
    /\b(?:not|other than|rather than|except|excluding|instead of)\s+(?:the|a|an|any|its)\s+([a-z]+(?:\s+[a-z]+)?)/g;
  const ruledOutWords: string[] = [];
  for (const m of core.matchAll(ruledOut)) {
    ruledOutWords.push(m[1]!);
    for (const s of contentStems(m[1]!)) excluded.add(s);
  }
  // "If there is no X, give Y": Y is a fallback, asked only when X is missing, so X's words
  // name the answer and Y's count for less.
  const fallback = [...core.matchAll(FALLBACK)].map((m) => m[1]!).join(' ');
  const asked = core.replace(FALLBACK, ' ');
  // The words outside parentheses name what is asked; the words inside clarify it ("what is
  // this letter about (subject line)?"), so they follow, at a lower weight.
  const head = asked.replace(/\([^)]*\)/g, ' ');
  const aside = [...asked.matchAll(/\(([^)]*)\)/g)].map((m) => m[1]!).join(' ');
  const terms = [...contentStems(head)];
  // "the total amount, including tax": what is included qualifies the answer, it is not it.
  const qualified = [...head.matchAll(QUALIFIER)];
  const own = new Set(contentStems(head.replace(QUALIFIER, ' ')));
  for (const t of contentStems(aside)) if (!terms.includes(t) && !excluded.has(t)) terms.push(t);
  const weights = new Map<string, number>();
  for (const t of contentStems(fallback)) weights.set(t, FALLBACK_WEIGHT);
  for (const t of contentStems(asked)) weights.set(t, 0.8);
  const qualifiers = new Set<string>();
  for (const [whole, what] of qualified) {
    for (const t of contentStems(what!)) {
      if (own.has(t)) continue;
      weights.set(t, QUALIFIER_WEIGHT);
      qualifiers.add(t);
    }
    // The marker itself ("including") names nothing.
    for (const t of contentStems(whole.slice(0, whole.length - what!.length)))
      if (!own.has(t)) weights.delete(t);
  }
  for (const t of own) weights.set(t, 1);
  const actors = new Set<string>();
  for (const m of head.matchAll(GENERIC_ACTOR))
    for (const t of contentStems(m[1]!)) if (weights.get(t) === 1) actors.add(t);
  for (const t of actors) weights.set(t, GENERIC_ACTOR_WEIGHT);
  for (const t of excluded) if (!terms.includes(t)) weights.delete(t);
  // The question's own words in another language count as the words themselves.
  for (const word of rawTokens(head)) {
    if (!own.has(stem(word))) continue;
    for (const f of translationsOfStem(stem(word))) if (!weights.has(stem(f))) weights.set(stem(f), 1);
  }
  // "Who will inspect the work?" asks for the inspector: a who-question's verb names its answer
  // by the agent noun ("inspector", "approver", "signatory"), as much as by the verb itself.
  const asksWho = /^\s*(?:who|by whom)\b/.test(core);
  for (const t of terms) {
    const w = weights.get(t) ?? 1;
    for (const s of derivedStems(t)) {
      if (weights.has(s)) continue;
      weights.set(s, asksWho && isAgentNoun(t, s) ? w : DERIVED_SHARE * w);
    }
  }
  // Shorthand means the word itself ("Attn" is attention), as a derived form does.
  for (const t of terms) {
    const w = weights.get(t) ?? 1;
    for (const s of [...shorthandOf(t), ...fullWordsOf(t)])
      if ((weights.get(s) ?? 0) < DERIVED_SHARE * w) weights.set(s, DERIVED_SHARE * w);
  }
  for (const t of terms) {
    for (const s of relatedStems(t)) if (!weights.has(s)) weights.set(s, RELATED_WEIGHT);
  }
  const startHits = (
    core.match(/\b(first|start|starting|begin|beginning|from|earliest|commence\w*|opening)\b/g) ?? []
  ).length;
  const endHits = (core.match(/\b(last|end|ending|final|until|through|expir\w*|latest|closing)\b/g) ?? [])
    .length;
  const rangeEnd = startHits > endHits ? 'start' : endHits > startHits ? 'end' : null;
  const phase = phaseAsked(core);
  if (phase) {
    for (const w of PHASE_RELATED[phase]) {
      const s = stem(w);
      if (!STOPWORDS.has(w) && !weights.has(s)) weights.set(s, RELATED_WEIGHT);
    }
  }
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
  // Outside parentheses and stopwords ("this" is no person, "the party" is), nor abbreviations
  // ("Re", a god in the lexicon, heads a subject line).
  const asks = ACT_ASKED.test(core)
    ? null
    : (rawTokens(head.replace(QUALIFYING_PARTY, '$1'))
        .filter((w) => w.length > 2 && !STOPWORDS.has(w))
        .map(nounKind)
        .find((k) => k !== undefined) ?? null);
  const role = askedSide(core.replace(ruledOut, ' '), ruledOutWords.join(' '));
  // The side a question asks for makes its answer a party only when the party is what is asked:
  // "the restrictions on the tenant" asks for restrictions.
  const partyAsked =
    role !== 0 &&
    askedSide(core.replace(ruledOut, ' ').replace(QUALIFYING_PARTY, '$1'), ruledOutWords.join(' ')) !== 0;
  const contact = CONTACT_ASKED.find(([, re]) => re.test(core))?.[0] ?? null;
  const tail = tailAsked(core);
  // "Last four digits", "ending in": how the answer is printed, not words its label prints.
  if (tail !== null) {
    for (const w of ['last', 'end', 'ending', 'digit', 'digits', String(tail), ...Object.keys(COUNT_WORDS)]) {
      const st = stem(w);
      for (const d of [st, ...derivedStems(st), ...relatedStems(st)])
        if (!terms.includes(d) || d === st) weights.delete(d);
      for (let i = terms.length - 1; i >= 0; i--) if (terms[i] === st) terms.splice(i, 1);
    }
  }
  // A contact detail is a value a document states or not, like an identifier ("email address" is
  // no place); so are the last digits of a card or account.
  const kind = contact || tail !== null ? 'identifier' : answerKind(core, asks, partyAsked);
  // Likewise "date" in a date question: every date's label says it.
  if (kind === 'date') {
    const d = stem('date');
    weights.set(d, 0.6);
    for (const f of translationsOf('date')) if (weights.has(stem(f))) weights.set(stem(f), 0.6);
    for (let i = terms.length - 1; i >= 0; i--) if (terms[i] === d) terms.splice(i, 1);
  }
  // The word naming the kind of answer ("tax amount", "order number", "name of the seller")
  // is printed by every label of that kind: it counts for less than the words naming the field.
  // A prompt that is the kind word alone ("Name") keeps it whole.
  const kindWord = KIND_WORD[kind];
  const kindStem = kindWord ? stem(kindWord) : null;
  if (kindWord && terms.some((t) => t !== kindStem)) {
    for (const k of [...[kindWord, ...translationsOf(kindWord)].map(stem), ...shorthandOf(stem(kindWord))]) {
      if ((weights.get(k) ?? 0) > KIND_WEIGHT) weights.set(k, KIND_WEIGHT);
    }
  }
  const focus = terms.filter((t) => t !== kindStem && !actors.has(t));
  if (role !== 0) focus.push(role === 1 ? '@issuing' : '@receiving');
  return {
    prompt,
    weights,
    terms,
    rangeEnd,
    phase,
    deadline: DEADLINE_ASKED.test(core),
    unit: unitWord as Query['unit'],
    kind,
    negated: /\b(not|never|without)\b/.test(core.replace(ruledOut, ' ')),
    excluded,
    qualifiers,
    role,
    counterparts: counterpartsOf(prompt),
    focus,
    asks,
    contact,
    tail,
  };
}

/**
 * Text written only in the question's own words (or their exact forms in other languages),
 * at most `maxStems` of them: a column header or caption that repeats what is asked ("Name"
 * for "the names of the key personnel").
 */
export function inQuestionWords(text: string, query: Query, maxStems = Number.POSITIVE_INFINITY): boolean {
  const stems = contentStems(text);
  return (
    stems.length > 0 && stems.length <= maxStems && stems.every((s) => (query.weights.get(s) ?? 0) >= 0.6)
  );
}

const KIND_WEIGHT = 0.6;
/** The word a question uses to name the kind of its answer, not which one it is. */
const KIND_WORD: Partial<Record<AnswerKind, string>> = {
  money: 'amount',
  identifier: 'number',
  entity: 'name',
};

/**
 * A party named after a preposition that follows what is asked ("the restrictions on the tenant",
 * "the obligations of the landlord"): it qualifies the answer, it is not it. The first group keeps
 * what is asked.
 */
const QUALIFYING_PARTY =
  /(\b(?!(?:name|names|who|whom|whose|which|what|contact|person|people|agent)\b)[a-z]{4,}s?)\s+(?:on|of|for|against|upon|under)\s+(?:(?:the|a|an|this|that|its|their|each|every|any)\s+)?[a-z-]+/g;

/** "What may the tenant not do?", "What must the buyer do?": an act is asked, not its actor. */
const ACT_ASKED = /^\s*what\s+(?:\w+\s+){1,5}?do\s*\??\s*$/;
/** Whether a question asks what someone may, must or may not do: its answer is an act, no name. */
export const asksAct = (prompt: string): boolean => ACT_ASKED.test(prompt.toLowerCase().replace(/\s+/g, ' '));

const DURATION_CUE = /\bhow long\b|\bduration\b|\bterm\b|\bperiod\b|\bhow many (?:days|weeks|months|years)\b/;
const DATING_PERIOD =
  /\b(?:(?:this|each|per|every|that|same)|(?:start|end|beginning|close) of (?:the|this|each))\s+(?:[a-z]+\s+)?period\b/g;
/**
 * Nouns that name a sum of money by themselves ("the net pay", "the monthly rent", "the closing
 * balance"), when they head the phrase: "pay period", "payment method" and "tax number" name
 * something else.
 */
const MONEY_NOUN =
  /(?<!\b(?:means|method|form|mode|type|kind|direct) of\s|\bdirect\s)\b(?:pay|salary|wages?|rent|deposit|balance|charges?|penalty|fine|premium|tax(?:es)?|vat|subtotal|earnings|income|payments?|retainer)\b(?!\s+(?:method|means|type|kind|frequency|cycle|period|date|day|deadline|terms?|number|no\b|id\b|ids\b|reference|ref\b|account|code|status|schedule|slip|stub|statement|advice|details|address|office|authority|rate|year|form|return|records?)\b)/;
const ITEMS_ASKED = /^\s*list\b|\b(?:descriptions?|types|kinds|lines|components|items|make up)\b/;

/**
 * "What is the title of the report?", "Name of this report": the name of a piece of writing is
 * its title, no person's or company's name.
 */
export function asksTitle(prompt: string): boolean {
  const q = prompt.toLowerCase();
  if (/\b(?:title|titled|called|heading)\b/.test(q)) return true;
  const named = /\bname of (?:this|the|that|its) (?:[a-z-]+ )?([a-z]+)\b/.exec(q);
  // WordNet counts a grammatical person and a bookkeeping account among writings: neither is titled.
  return named !== null && namesWriting(named[1]!) && !/^(?:person|people|account|item)s?$/.test(named[1]!);
}

/** The answer shape from question words alone (who, when, how much, which number). */
function answerKind(q: string, asks: NounKind | null, partyAsked: boolean): AnswerKind {
  const money = MONEY_NOUN.exec(q)?.index;
  // "Tax deducted this period", "balance at the end of the statement period": a period that
  // only dates what is asked is no length asked for.
  const timed = q.replace(DATING_PERIOD, ' ');
  const duration = DURATION_CUE.exec(timed)?.index;
  if (duration !== undefined && !/\bdate\b/.test(q) && (money === undefined || duration < money))
    return 'duration';
  if (/\bwhen\b|\bdate\b|\bday\b/.test(q)) return 'date';
  if (/\bhow much\b|\bamount\b|\bprice\b|\bcost\b|\btotal\b|\bfee\b|\bsum\b|\$|\bdollars?\b/.test(q))
    return 'money';
  if (
    /\bnumbers?\b|#|\bnos?\.|\bids?\b|\bcodes?\b|\bskus?\b|\breferences?\b|\brefs?\b/.test(q) &&
    !/\bhow many\b|\bnumber of (?!this|the|that|its|each)\w/.test(q)
  ) {
    return 'identifier';
  }
  if (ACT_ASKED.test(q)) return 'span';
  if (asksTitle(q)) return 'span';
  // "On which street is the business located?", "the company's address": a place, whatever
  // party it belongs to, unless its name is asked as well.
  if (/\b(?:street|address|located|location)\b/.test(q) && !/\bwho\b|\bwhom\b|\bname\b/.test(q))
    return 'place';
  if (
    /\bwho\b|\bwhom\b|\bwhose\b|\bname\b|\bcompany\b|\bwhich (?:firm|business|person|organi[sz]ation)\b/.test(
      q,
    )
  )
    return 'entity';
  // An account is told by its number ("the account the pay went to"), unless a detail of it is asked.
  if (
    /\baccount\b/.test(q) &&
    !/\baccount (?:holder|owner|type|manager|balance|summary|statement|period|status|executive)/.test(q)
  )
    return 'identifier';
  // The items of a list of payments are told by their descriptions, no sum.
  if (money !== undefined && !ITEMS_ASKED.test(q)) return 'money';
  if (/\bwhere\b|\bwhich (?:state|country|city)\b|\baddress\b|\blocation\b/.test(q)) return 'place';
  // "Recipient", "the issuing agency", "the premises": the question's noun says what it names.
  // A side of an exchange asked for ("which store issued this receipt") is a party: a name.
  if (asks === 'person' || asks === 'group' || partyAsked) return 'entity';
  if (asks === 'place') return 'place';
  return 'span';
}

/** Kinds of answer that are values a document states or leaves out (a date, an amount, a term). */
export const VALUE_KINDS: readonly AnswerKind[] = ['duration', 'date', 'money', 'identifier'];

const STATING =
  '(?:state|specify|mention|include|contain|give|provide|indicate|set out|show|list|have|carry|bear|quote)';
/** "Does the agreement state a fixed term?", "Does it have a due date?" */
const DOES_STATE = new RegExp(
  `^\\s*(?:does|do|did|has|have)\\s+(?:\\w+\\s+){0,3}?${STATING}(?:s|d|ed)?\\s+(?:(?:a|an|any|the|some|its)\\s+)?([^?]+?)\\s*\\??\\s*$`,
);
/** "Is there a due date?", "Is a reference number given?" */
const IS_THERE = /^\s*(?:is|are|was|were)\s+there\s+(?:(?:a|an|any|some)\s+)?([^?]+?)\s*\??\s*$/;
const IS_GIVEN =
  /^\s*(?:is|are|was|were)\s+(?:a|an|any|the|some)\s+([^?]+?)\s+(?:stated|specified|mentioned|given|provided|indicated|shown|listed|included|set out|quoted)\b[^?]*\??\s*$/;

/**
 * What a yes/no question asks the document to state, when it asks only whether it states a
 * value: "Does this agreement state a fixed term?" is answered by looking for the term, and
 * is yes exactly when "What is the fixed term?" has an answer.
 */
export function existenceTarget(prompt: string): string | null {
  const q = prompt.toLowerCase().replace(/\s+/g, ' ').trim();
  const m = q.match(DOES_STATE) ?? q.match(IS_THERE) ?? q.match(IS_GIVEN);
  if (!m) return null;
  // "... stated in the document", "... in this agreement": where to look, not what.
  const target = m[1]!.replace(/\s+(?:in|on|within|anywhere in)\s+(?:the|this|that|its)\s+\w+$/, '').trim();
  if (!target) return null;
  return VALUE_KINDS.includes(analyzeQuery(target).kind) ? target : null;
}

/** The other languages' words for any form of an English word ("copied", "invoices"). */
function translationsOfStem(s: string): readonly string[] {
  byStem ??= new Map(englishWords().map((e) => [stem(e), translationsOf(e)]));
  return byStem.get(s) ?? [];
}
let byStem: Map<string, readonly string[]> | undefined;
