import { stem } from '../text/tokenize.ts';
import type { Examined, Scored } from './answer-document.ts';
import { distinctNames } from './distinct-names.ts';
import { FEATURES, type ScoringContext, sidesSeen, valueKey } from './features.ts';
import { MARKER, opensLineMarked } from './markers.ts';
import type { ScorerModel } from './model.ts';
import { asksAct, inQuestionWords, type Query } from './query.ts';
import type { Group, TypedCandidate } from './typed-candidates.ts';

const SERIES_OPPOSED = FEATURES.indexOf('seriesOpposed');

/** The page words a candidate is read from, as page:word keys. */
export const wordKeys = (c: TypedCandidate): string[] =>
  c.at.unit.words.slice(c.at.from, c.at.to + 1).map((w) => `${c.at.page}:${w}`);

/**
 * The words of series that count out the opposite of what is asked ("includes information that
 * (a) …" for what is excluded), when another series does not: they answer nothing, neither as
 * entries of their series nor read as a line of their own. With no other series the learned
 * score decides, as a lone series may still be what is asked.
 */
function opposedSeriesWords(scored: readonly Scored[]): Set<string> {
  const series = scored.filter((s) => s.cand.series !== undefined);
  const opposed = series.filter((s) => s.x[SERIES_OPPOSED] === 1);
  if (opposed.length === series.length) return new Set();
  return new Set(opposed.flatMap((s) => wordKeys(s.cand)));
}

/**
 * The entries a list question asks for, the most probable first (none when the document holds
 * no such list). An entry convincing alone opens the list; failing one, a run of entries that
 * together are (the rows of one table column, the lines of one bulleted block) when their summed
 * probability clears the run threshold, which training sets on families the scorer never saw.
 */
export function listItems(
  examined: Examined,
  query: Query,
  m: Pick<ScorerModel['groups'][Group], 'threshold' | 'runThreshold'>,
): Scored[] {
  const e = directionFirst(examined, query);
  const asksSummary = /\b(?:sub-?totals?|totals?|sums?|balances?)\b/i.test(query.prompt);
  const actAsked = asksAct(query.prompt);
  const items: Scored[] = [];
  const seen = new Set<string>();
  const used = new Set<string>();
  // The contiguous block of the first entry's column: rows below a heading or a total are another list.
  const blocks = new Map<Scored, Set<Scored>>();
  const blockOf = (first: Scored) => {
    const block = blocks.get(first) ?? new Set(siblingsOf(e.ctx, e.scored, first, 0));
    blocks.set(first, block);
    return block;
  };
  const opposedWords = opposedSeriesWords(e.scored);
  const tidied = new Map<Scored, Scored>();
  // One item per value, and no item built from another item's words; a cell saying only
  // what the question says ("Name" heading the column of names asked for) is a caption.
  const take = (s: Scored) => {
    const t = tidy(s);
    if (inQuestionWords(t.cand.text, query, 3) || onOtherSide(e, query, t.cand)) return;
    if ((!sentenceLike(t.cand) && CAPTION.test(t.cand.text)) || headsFigures(e.ctx, s.cand)) return;
    // A form's own question ("Is this a foreign entity?", "Type of entity (check one)") asks; it lists nothing.
    if (ASKING.test(t.cand.text)) return;
    // Nor does a form's numbered caption: the field it names, not an entry of any list.
    if (numberedCaption(e, s.cand) && (t.cand.traits.nameShape ?? 0) < 0.5) return;
    // An entry naming the whole list asked for ("See Schedule A for the names of the principals",
    // "Full names of all owners") refers to the list or captions it; it is none of its entries.
    if ((t.cand.traits.nameShape ?? 0) < 0.5 && namesTheList(query, t.cand.text)) return;
    // Persons or companies asked for: a sentence is none of them, however it scores.
    if (query.kind === 'entity' && sentenceLike(t.cand)) return;
    // Numbers or codes asked for ("the policy numbers", "the part numbers"): the coverage named
    // beside each is none, nor the description of a part that happens to hold a figure.
    if (query.kind === 'identifier' && !t.cand.traits.idShape) return;
    // Acts asked for ("What may the tenant not do?"): the tenant's name is none of them.
    if (actAsked && (t.cand.traits.nameShape ?? 0) >= 0.5 && t.cand.text.split(/\s+/).length <= 4) return;
    // Entries of a bulleted or counted-out list are all marked so: the paragraph after it is none.
    if (items.length > 0 && isMarked(e, items[0]!) && !isMarked(e, s)) return;
    // A list of codes holds codes: the coverage named beside each policy number is no entry.
    if (items.length > 0 && CODE.test(tidied.get(items[0]!)!.cand.text) && !t.cand.traits.hasDigits) return;
    // Entries of one list share a shape: a sentence is no entry of a list of names, nor a name of a list of sentences.
    // Entries counted out in one series are one list whatever their length.
    const sameSeries = s.cand.series !== undefined && s.cand.series === items[0]?.cand.series;
    // A counted-out series is one list: the next clause's (a), (b) count out something else.
    if (items.length > 0 && items[0]!.cand.series !== undefined && !sameSeries) return;
    if (items.length > 0 && !sameSeries && sentenceLike(s.cand) !== sentenceLike(items[0]!.cand)) return;
    // Below a heading or a summary row in the first entry's column begins another list.
    if (items.length > 0 && inColumnOf(e.ctx, items[0]!, s) && !blockOf(items[0]!).has(s)) return;
    // Rows of the first entry's table (on any of its pages) with their figures in other columns
    // or of the other sign are another list of it: the money paid out among the money paid in.
    if (items.length > 0 && !sameRowKind(e.ctx, items[0]!, s)) return;
    // A totals block beside an order's lines (a column of figures closed by a total) is none of them.
    if (items.length > 0 && !sameSeries && inTotalsBlock(e, items[0]!, s)) return;
    const k = valueKey(t.cand);
    const wordsKey = wordKeys(t.cand);
    if (wordsKey.some((w) => opposedWords.has(w))) return;
    if (!k || seen.has(k) || wordsKey.some((w) => used.has(w)) || items.length >= 30) return;
    seen.add(k);
    for (const w of wordsKey) used.add(w);
    tidied.set(s, t);
    items.push(s);
  };
  const reset = () => {
    items.length = 0;
    seen.clear();
    used.clear();
  };
  // A reader who finds one entry of a list reads the rest: its column, its series.
  const expand = () => {
    // The first entry's own series first: its members as written, before shorter readings of them.
    const first = items[0]!.cand.series;
    if (first) for (const s of e.scored) if (s.cand.series === first) take(s);
    for (const s of siblingsOf(e.ctx, e.scored, items[0]!, m.threshold * SIBLING_SHARE)) take(s);
    for (let i = 0; i < items.length; i++) {
      for (const s of coordinatedWith(e, items[i]!, m.threshold * SIBLING_SHARE)) take(s);
      const series = items[i]!.cand.series;
      if (series) for (const s of e.scored) if (s.cand.series === series) take(s);
    }
  };
  const keyOf = (s: Scored) => valueKey(tidy(s).cand);
  for (const s of e.scored) {
    if (s.p < m.threshold || items.length >= 30) break;
    take(s);
  }
  if (items.length > 0) expand();
  // One name alone (a signature) that a run of entries also lists ("a) Bruno Iwasaki, b) …"): the
  // list is the run, when it holds every other entry found too.
  const elsewhere = (a: Scored, b: Scored) => {
    if (a.cand.at.page !== b.cand.at.page) return true;
    const [x, y] = [boxOf(e.ctx, a.cand), boxOf(e.ctx, b.cand)];
    return x[2] <= y[0] || y[2] <= x[0] || x[3] <= y[1] || y[3] <= x[1];
  };
  const other = items.length > 0 ? bestRun(e, asksSummary, (s) => !elsewhere(s, items[0]!)) : null;
  // Entries of one list are about as likely as each other, or counted out ("a)", "b)"): a
  // caption over a signature is no entry.
  const even = (r: Scored[]) => Math.min(...r.map((s) => s.p)) >= 0.25 * Math.max(...r.map((s) => s.p));
  const alone =
    other !== null &&
    other.sum >= (m.runThreshold ?? m.threshold) &&
    (even(other.items) || other.items.every((s) => isMarked(e, s))) &&
    items.every((found) => other.items.some((s) => keyOf(s) === keyOf(found)));
  const run = alone && other ? other : bestRun(e, asksSummary);
  if (items.length === 0 || alone) {
    if (run.sum < (m.runThreshold ?? m.threshold)) return [];
    const before = [...items];
    reset();
    for (const s of run.items) take(s);
    // None of the run is an entry after all (the other side's names): the one found stands.
    if (items.length === 0) for (const s of before) take(s);
    if (items.length === 0) return [];
    expand();
  }
  // Summary rows (an account summary's balances and the caption beside them) are no list of
  // entries, unless asked for: the strongest run of entries answers, if any clears the run threshold.
  const summaries = items.filter((s) => SUMMARY_ROW.test(s.cand.text)).length;
  if (!asksSummary && items.length > 0 && summaries * 2 >= items.length) {
    const entriesRun = bestRun(e, asksSummary, (s) => SUMMARY_ROW.test(s.cand.text));
    reset();
    if (entriesRun.sum < (m.runThreshold ?? m.threshold)) return [];
    for (const s of entriesRun.items) take(s);
    if (items.length === 0) return [];
    expand();
  }
  // Entries of one list are printed together: with the first entry in a run of two or more (a
  // column, a series, names joined by commas), a name elsewhere (the addressee over a letter's
  // "cc:" line) joins only when convincing alone.
  if (items.length > 1) {
    const linked = linkedTo(e, items[0]!, items, blockOf(items[0]!));
    if (linked.size > 1) {
      const loose = items.filter((s) => !linked.has(s) && s.p < STRAY_FLOOR);
      if (loose.length) items.splice(0, items.length, ...items.filter((s) => !loose.includes(s)));
    }
  }
  // A table's summary row read along with its entries is not one of them, unless asked for.
  const entries = items.filter((s) => !SUMMARY_ROW.test(s.cand.text));
  let kept = entries.length >= 2 && entries.length < items.length && !asksSummary ? entries : items;
  // People asked for: the company a signatory signs for, printed over the names, is none of them.
  if (PEOPLE_ASKED.test(query.prompt) && !COMPANIES_ASKED.test(query.prompt)) {
    const people = kept.filter((s) => !tidied.get(s)!.cand.traits.orgSuffix);
    if (people.length > 0) kept = people;
  }
  return distinctNames(withoutCounts(kept.map((s) => tidied.get(s)!)), (s) => String(s.cand.value));
}

/** Below this, an entry printed apart from the first entry's run is read as a stray line. */
const STRAY_FLOOR = 0.5;

/** The items printed in one run with `first`: its column block, its series, names joined to it. */
function linkedTo(
  e: Examined,
  first: Scored,
  items: readonly Scored[],
  block: ReadonlySet<Scored>,
): Set<Scored> {
  // An entry printed twice (in the parties' sentence and under "Name:") is linked by either printing.
  const keys = new Map<Scored, string>();
  const key = (s: Scored) => {
    const known = keys.get(s);
    if (known !== undefined) return known;
    const k = valueKey(tidy(s).cand);
    keys.set(s, k);
    return k;
  };
  const wanted = new Set(items.map(key));
  const linked = new Set<string>([key(first)]);
  const queue = e.scored.filter((s) => key(s) === key(first));
  const link = (s: Scored) => {
    const k = key(s);
    if (!wanted.has(k) || linked.has(k)) return;
    linked.add(k);
    queue.push(...e.scored.filter((t) => key(t) === k));
  };
  for (const s of block) link(s);
  // A table's rows go on over the page: a row of the same columns on another page.
  for (const s of items)
    if (s.cand.at.page !== first.cand.at.page && continuesTable(e.ctx, first, s)) link(s);
  while (queue.length) {
    const x = queue.pop()!;
    if (x.cand.series !== undefined) for (const s of e.scored) if (s.cand.series === x.cand.series) link(s);
    for (const s of coordinatedWith(e, x, 0)) link(s);
  }
  return new Set(items.filter((s) => linked.has(key(s))));
}

/** Whether `s` is a row of `first`'s table printed on another page: figures in the same columns. */
function continuesTable(ctx: ScoringContext, first: Scored, s: Scored): boolean {
  const [x, y] = [figureColumns(ctx, first.cand), figureColumns(ctx, s.cand)];
  return !!x?.length && !!y?.length && sameRowKind(ctx, first, s);
}

/** Money coming in, asked for ("incoming payments", "the deposits", "credits received"). */
const MONEY_IN = /\b(?:incoming|received|deposits?|credits?|paid in|money in|inflows?|refunds?)\b/i;
/** Money going out, asked for ("outgoing payments", "the withdrawals", "debits"). */
const MONEY_OUT = /\b(?:outgoing|withdrawals?|debits?|paid out|money out|outflows?|spent|purchases)\b/i;

/**
 * Asked for the money coming in (or going out) of a table that signs its amounts in one column,
 * rows of the other sign rank after every other candidate, however the scorer read them: the
 * sign says which way the money went, which no caption of the column does.
 */
function directionFirst(e: Examined, query: Query): Examined {
  const inAsked = MONEY_IN.test(query.prompt);
  const outAsked = MONEY_OUT.test(query.prompt);
  if (inAsked === outAsked) return e;
  const rows = new Map<Scored, FigureCell[]>();
  for (const s of e.scored) {
    const f = figureColumns(e.ctx, s.cand);
    if (f?.length) rows.set(s, f);
  }
  const cells = [...new Set(rows.values())].flat();
  // A column is signed when it holds figures of both signs.
  const signed = (x: FigureCell) => cells.some((y) => overlaps(x, y) && y.negative !== x.negative);
  const wrongWay = (s: Scored) => rows.get(s)?.some((x) => signed(x) && x.negative === inAsked) ?? false;
  if (!e.scored.some(wrongWay)) return e;
  return { ...e, scored: [...e.scored.filter((s) => !wrongWay(s)), ...e.scored.filter(wrongWay)] };
}

/**
 * The strongest run of two or more entries in one column (the rows of a table, the lines of a
 * bulleted block), in one written series or in one counted-out or captioned series.
 */
function bestRun(
  e: Examined,
  asksSummary: boolean,
  avoid: (s: Scored) => boolean = () => false,
): { items: Scored[]; sum: number } {
  let best: Scored[] = [];
  let bestSum = 0;
  for (const anchor of e.scored.slice(0, 10)) {
    if ((SUMMARY_ROW.test(anchor.cand.text) && !asksSummary) || avoid(anchor)) continue;
    // One column's rows, or the members of one series written in a sentence ("A, B and C").
    const series = anchor.cand.series;
    for (const run of [
      [anchor, ...siblingsOf(e.ctx, e.scored, anchor, 0)],
      [anchor, ...coordinatedWith(e, anchor, 0)],
      // A series of short entries ("Modules completed: A, B, C"); clauses counted out ("shall not
      // (a) …") stand as a list only when one of them convinces alone.
      series && anchor.cand.traits.prose !== 1 ? e.scored.filter((s) => s.cand.series === series) : [],
    ]) {
      if (run.length < 2 || run.some(avoid)) continue;
      const sum = run.reduce((t, s) => t + s.p, 0);
      if (sum > bestSum) {
        bestSum = sum;
        best = run;
      }
    }
  }
  return { items: best, sum: bestSum };
}

/**
 * Words a caption is made of and no entry is: one ending on a joining word ("CONFIRMED AND AGREED
 * AS", "Signed for and on behalf of"), an instruction to whoever fills the form ("Name (please print)").
 */
const CAPTION =
  /\b(?:as|by|of|to|for|and|or|the|per|on behalf of)\s*:?$|\bplease\b|^\(?(?:print(?:ed)?\s+)?name\b/i;

/**
 * A form's numbered field caption: "3. Address of principal place of business" with the value
 * it captions beside it on its line, or one ending on a colon over the entries below ("9.
 * Principals (name and title):"). Forms count their fields "1.", "2."; the entries of a list
 * under them run "a)", "b)", and a table's rows are not counted inside their first cell.
 */
function numberedCaption(e: Examined, c: TypedCandidate): boolean {
  const at = c.at;
  if (at.to !== at.unit.words.length - 1) return false;
  const words = e.ctx.index.doc.pages[at.page]!.words;
  const counted = (w: number | undefined) => w !== undefined && /^\d{1,2}\.$/.test(words[w]!.text);
  // The count is the candidate's first word ("5. Nature of business" as one cell) or the one before it.
  const marked =
    at.from === 0
      ? counted(at.unit.words[0]) && at.to > 0
      : counted(at.unit.words[at.from - 1]) && opensLineMarked(e.ctx.index, c);
  if (!marked) return false;
  if (words[at.unit.words[at.to]!]!.text.endsWith(':')) return true;
  if (at.unit.kind !== 'segment') return false;
  const line = e.ctx.index.layouts[at.page]?.lines[at.unit.line];
  const k = line?.segments.findIndex((g) => g.words[0] === at.unit.words[0]) ?? -1;
  const next = k >= 0 ? line!.segments[k + 1] : undefined;
  return next !== undefined;
}

/**
 * Whether a text names the plural a list question asks for as a whole: after a determiner ("the
 * names of the principals", "all owners"), or as a caption over the entries ("Principals (name
 * and title):"). An entry holding the noun as its own head ("Bookkeeping services" among the
 * services asked for) is one of them.
 */
function namesTheList(query: Query, text: string): boolean {
  const plurals = (query.prompt.match(/\p{L}{3,}s\b/gu) ?? [])
    .map((w) => w.toLowerCase())
    .filter((w) => query.terms.includes(stem(w)));
  return plurals.some((w) => {
    const said = new RegExp(`(?<!\\p{L})${w}(?!\\p{L})`, 'iu');
    if (!said.test(text)) return false;
    return /:\s*$/.test(text) || new RegExp(`\\b${WHOLE}\\s+(?:\\p{L}+\\s+)?${w}(?!\\p{L})`, 'iu').test(text);
  });
}
/** Words that take a plural as a whole: "the", "all", "of". */
const WHOLE = '(?:the|all|of|these|those|such|its|their|our|your|any)';

/** A form's own question: one ending on a question mark, or offering choices ("(check one)"). */
const ASKING = /\?\s*$|\(\s*(?:check|tick|select|circle|mark)\s+(?:one|all|any)\b[^)]*\)\s*:?\s*$/i;

/** Questions that ask for persons: people, individuals, whoever signed (a company signs through them). */
const PEOPLE_ASKED =
  /\b(?:people|persons?|individuals|signator(?:y|ies)|signers?|who (?:has |have )?signed|signed by)\b/i;

const COMPANIES_ASKED = /\b(?:compan(?:y|ies)|organi[sz]ations?|entit(?:y|ies)|firms?|businesses)\b/i;

/** A code alone: one token of letters, digits and separators, with a digit ("GL-5106009"). */
const CODE = /^(?=[^\s]*\d)[\p{L}\d][\p{L}\d\-/.#]*$/u;

/** Whether an entry is printed after a bullet or counting marker ("•", "-", "a)", "3."). */
function isMarked(e: Examined, s: Scored): boolean {
  if (s.cand.series || (tidy(s) !== s && !/^(?:for|by)\s/i.test(s.cand.text))) return true;
  return opensLineMarked(e.ctx.index, s.cand);
}

/** A marker opening an entry ("a)", "1.", "(ii)", "•") or the "for" of a signature's company line. */
const LEAD_WORD = new RegExp(`^(?:${MARKER}|for|by)$`, 'i');

/** An entry as a reader copies it: without the marker that counts it out or the "for" before a company. */
function tidy(s: Scored): Scored {
  const c = s.cand;
  const words = c.text.split(/\s+/);
  if (c.picture || words.length < 2 || words.length !== c.at.to - c.at.from + 1) return s;
  const first = words[0]!;
  if (!LEAD_WORD.test(first) || (/^[a-z]{2,}$/i.test(first) && !/^\p{Lu}/u.test(words[1]!))) return s;
  if (/^(?:for|by)$/i.test(first) && !/^[a-z]/.test(first)) return s;
  const text = words.slice(1).join(' ');
  return {
    ...s,
    cand: { ...c, at: { ...c.at, from: c.at.from + 1 }, value: text, text, traits: { ...c.traits } },
  };
}

/** A count printed before an entry ("1 Iced tea", "2 x Bananas"), as its own word or words. */
const COUNT_WORD = /^(?:\d{1,3}|\d{1,3}[x×]|[x×@])$/;

/**
 * Entries that all open with a count are the rows of a table whose quantity column runs into
 * the description (a till roll's "1 Iced tea"): the entry is the thing, not how many of it.
 */
function withoutCounts(items: Scored[]): Scored[] {
  const counted = items.map((s) => {
    const words = s.cand.text.split(/\s+/);
    let k = 0;
    while (k < 2 && k < words.length - 1 && COUNT_WORD.test(words[k]!)) k++;
    return k > 0 && /^\p{L}/u.test(words[k]!) && /^\d/.test(words[0]!) ? k : 0;
  });
  if (items.length < 2 || counted.some((k) => k === 0)) return items;
  return items.map((s, i) => {
    const k = counted[i]!;
    const text = s.cand.text.split(/\s+/).slice(k).join(' ');
    return { ...s, cand: { ...s.cand, at: { ...s.cand.at, from: s.cand.at.from + k }, value: text, text } };
  });
}

/** A sentence, not a name or a short description ("Coffee beans, house blend 1 kg"). */
const sentenceLike = (c: TypedCandidate) =>
  c.traits.prose === 1 && (/[.!?;]$/.test(c.text) || c.text.split(/\s+/).length >= 8);

/**
 * A list asked for one side ("the tenants", "the buyers") leaves out the names the document
 * puts only on the other side: a party it defines as "Landlord" or captions "Seller:" is no tenant
 * or buyer, however name-like.
 */
function onOtherSide(e: Examined, query: Query, c: TypedCandidate): boolean {
  // A clause is no party: "sublet the Premises" under the landlord's heading is still the tenant's duty.
  if (query.role === 0 || c.traits.prose === 1) return false;
  const seen = sidesSeen(e.ctx, c);
  return !seen.same && seen.other;
}

/** A sibling of the best item needs this share of the item threshold: its place vouches for the rest. */
const SIBLING_SHARE = 0.25;
/**
 * The first words of a table's summary rows (totals, balances) in the languages documents use
 * most, or a total or balance named last ("Merchandise total", "Closing balance:").
 */
const SUMMARY_ROW =
  /^\s*(?:sub-?total|total|grand total|sum|balance|amount due|totaal|gesamt|summe|montant total)\b|^(?:\S+\s+){1,2}(?:sub-?total|total|balance|totaal|summe|saldo)\s*:?\s*$/i;

const boxOf = (ctx: ScoringContext, c: TypedCandidate) => {
  const page = ctx.index.doc.pages[c.at.page]!;
  const ws = c.at.unit.words.slice(c.at.from, c.at.to + 1).map((w) => page.words[w]!.box);
  return [
    Math.min(...ws.map((b) => b[0])),
    Math.min(...ws.map((b) => b[1])),
    Math.max(...ws.map((b) => b[2])),
    Math.max(...ws.map((b) => b[3])),
  ] as const;
};

/**
 * The other entries of the list the best item belongs to: candidates of the same kind that
 * start at the same left edge on the lines just above and below it (a bulleted list, a table
 * column), one run without a wide gap. A reader who finds one entry of a list reads the rest.
 */
function siblingsOf(ctx: ScoringContext, scored: Scored[], anchor: Scored, floor: number): Scored[] {
  if (anchor.cand.picture) return [];
  const a = boxOf(ctx, anchor.cand);
  const h = a[3] - a[1];
  if (h <= 0) return [];
  const figures = figureColumns(ctx, anchor.cand);
  const column = scored
    .filter((s) => s !== anchor && inColumnOf(ctx, anchor, s))
    .map((s) => ({ s, b: boxOf(ctx, s.cand) }));
  const out: Scored[] = [];
  // Walk away from the anchor both ways while the line gap stays list-like.
  for (const dir of [-1, 1] as const) {
    let edge = dir < 0 ? a[1] : a[3];
    const ahead = column.filter(({ b }) => (dir < 0 ? b[3] <= a[1] + h * 0.2 : b[1] >= a[3] - h * 0.2));
    // Nearest line first; of two readings of one row ("Ann Lee", "Ann Lee Partner") the likelier.
    const run = ahead.sort((x, y) => dir * (x.b[1] - y.b[1]) || y.s.p - x.s.p);
    for (const { s, b } of run) {
      const gap = dir < 0 ? edge - b[3] : b[1] - edge;
      // A table's summary row closes its entries; it is not one of them. So does a row with
      // its figures in other columns: a section heading, the debits below the credits.
      if (gap > h * 2.2 || SUMMARY_ROW.test(s.cand.text)) break;
      const row = figureColumns(ctx, s.cand);
      // Figures on one row and none on the other: a heading, a caption line, another block.
      if (figures && row && (figures.length === 0) !== (row.length === 0)) break;
      // A row of the same table, its figures in the same columns, needs no score of its own.
      if (s.p < floor && !(figures?.length && row?.length)) continue;
      edge = dir < 0 ? b[1] : b[3];
      if (sameColumns(figures, row) && !oppositeSigns(figures, row)) out.push(s);
    }
  }
  return out;
}

/**
 * A row of cells without figures over a row with figures ("Description | Amount", "Taxes &
 * deductions | This period"): the caption of the rows below, not one of them.
 */
function headsFigures(ctx: ScoringContext, c: TypedCandidate): boolean {
  const figures = figureColumns(ctx, c);
  if (figures === null || figures.length > 0) return false;
  const lines = ctx.index.layouts[c.at.page]?.lines;
  const [line, next] = [lines?.[c.at.unit.line], lines?.[c.at.unit.line + 1]];
  if (!line || !next || next.segments.length < 2) return false;
  // Its other cells caption the figures below them.
  return next.segments.some(
    (g) =>
      FIGURE.test(g.text) &&
      line.segments.some(
        (h) => h.words[0] !== c.at.unit.words[0] && h.box[0] < g.box[2] && g.box[0] < h.box[2],
      ),
  );
}

/** Whether `s` starts at the left edge of `anchor`'s column, on its page, in a line as high. */
function inColumnOf(ctx: ScoringContext, anchor: Scored, s: Scored): boolean {
  if (s.cand.at.page !== anchor.cand.at.page || s.cand.source !== anchor.cand.source) return false;
  const [x, y] = [entryLeft(ctx, anchor.cand), entryLeft(ctx, s.cand)];
  if (x === null || y === null) return false;
  const a = boxOf(ctx, anchor.cand);
  const b = boxOf(ctx, s.cand);
  const h = a[3] - a[1];
  return Math.abs(y - x) < h * 0.8 && Math.abs(b[3] - b[1] - h) < h * 0.35;
}

/**
 * Where an entry's line starts: at its first word, or at the marker before it ("a) Cormac
 * Delaney": the name is the entry, "a)" its place in the column). Null inside a line.
 */
function entryLeft(ctx: ScoringContext, c: TypedCandidate): number | null {
  const at = c.at;
  if (at.from === 0) return ctx.index.doc.pages[at.page]!.words[at.unit.words[0]!]!.box[0];
  // The marker opens its line, though the sentence before ran on into it ("4. Actions for the
  // coming period" over "- Launch …", no full stop between).
  return opensLineMarked(ctx.index, c)
    ? ctx.index.doc.pages[at.page]!.words[at.unit.words[at.from - 1]!]!.box[0]
    : null;
}

/** A cell holding only a figure: an amount, a count, a date (currency codes and signs aside). */
const FIGURE =
  /^[^\p{L}\p{N}]*(?:[A-Z]{3}\s?)?[-−+(]?[\p{Sc}]?\s?\d[\d.,/:' ]*\)?\s?(?:[A-Z]{3}|CR|DR|%)?[^\p{L}\p{N}]*$/u;

/** Whether two cells' horizontal extents overlap: they stand in one column. */
const overlaps = (x: readonly [number, number], y: readonly [number, number]) => x[0] < y[1] && y[0] < x[1];

/** A figure printed as negative: a minus before it, brackets round it, a debit mark after it. */
const NEGATIVE = /^[^\p{N}]*[-−(]|(?:-|\bDR)\s*$/u;

/** A cell of a table row holding a figure: its horizontal extent, and whether it is negative. */
type FigureCell = [number, number] & { negative?: boolean };

/**
 * The cells of a candidate's table row that hold figures, or null when the candidate is not in
 * a row of cells. Rows of one list hold their figures in the same columns.
 */
function figureColumns(ctx: ScoringContext, c: TypedCandidate): FigureCell[] | null {
  const unit = c.at.unit;
  if (unit.kind !== 'segment') return null;
  const line = ctx.index.layouts[c.at.page]?.lines[unit.line];
  if (!line) return null;
  return line.segments
    .filter((g) => FIGURE.test(g.text))
    .map((g) => Object.assign([g.box[0], g.box[2]] as [number, number], { negative: NEGATIVE.test(g.text) }));
}

/**
 * Rows whose figures in one column carry opposite signs are two lists of one table: the money
 * paid out among the money paid in, on a statement that prints both in one signed column.
 */
function oppositeSigns(a: FigureCell[] | null, b: FigureCell[] | null): boolean {
  if (a === null || b === null) return false;
  return a.some((x) => b.some((y) => overlaps(x, y) && x.negative !== y.negative));
}

/**
 * Whether `s` stands in a block of rows with figures that a summary row closes ("Merchandise
 * total", "Shipping & handling", "Order total"), outside the column of the table row `entry` opens.
 */
function inTotalsBlock(e: Examined, entry: Scored, s: Scored): boolean {
  const ctx = e.ctx;
  if (SUMMARY_ROW.test(entry.cand.text) || s.cand.at.page !== entry.cand.at.page) return false;
  if (!figureColumns(ctx, entry.cand)?.length || !figureColumns(ctx, s.cand)?.length) return false;
  if (inColumnOf(ctx, entry, s)) return false;
  return [s, ...siblingsWithSummaries(ctx, e.scored, s)].some((r) => SUMMARY_ROW.test(r.cand.text));
}

/** The rows of `s`'s column within six line heights of it, summary rows included. */
function siblingsWithSummaries(ctx: ScoringContext, scored: Scored[], s: Scored): Scored[] {
  const a = boxOf(ctx, s.cand);
  const h = a[3] - a[1];
  return scored.filter((t) => {
    if (t === s || !inColumnOf(ctx, s, t)) return false;
    const b = boxOf(ctx, t.cand);
    return Math.abs(b[1] - a[1]) <= h * 6;
  });
}

/**
 * Whether two rows hold their figures alike, in the same columns and of one sign, when they are
 * rows of one table (a figure in a shared column); anything else is not compared.
 */
function sameRowKind(ctx: ScoringContext, a: Scored, b: Scored): boolean {
  if (a.cand.source !== b.cand.source) return true;
  const [x, y] = [figureColumns(ctx, a.cand), figureColumns(ctx, b.cand)];
  if (!x?.some((f) => y?.some((g) => overlaps(f, g)))) return true;
  return sameColumns(x, y) && !oppositeSigns(x, y);
}

function sameColumns(a: [number, number][] | null, b: [number, number][] | null): boolean {
  if (a === null || b === null) return true;
  const meets = (x: [number, number], ys: [number, number][]) => ys.some((y) => overlaps(x, y));
  // An empty cell (no hours on a flat allowance) is no other column: one set may hold the other.
  return a.every((x) => meets(x, b)) || b.every((x) => meets(x, a));
}

/** Words that join the members of a series ("X and Y", "X, Y & Z"). */
const SERIES_JOIN = /^(?:,|;|&|and|,\s*and|und|et|en|y)$/i;

/**
 * The other members of a series the item is written in: candidates of the same kind in the same
 * sentence or line, separated from it by nothing but a comma or "and" ("between Acme Corp and
 * Beta LLC"). A reader who takes one member as an entry takes the others.
 */
function coordinatedWith(e: Examined, item: Scored, floor: number): Scored[] {
  if (item.cand.picture) return [];
  const at = item.cand.at;
  const page = e.ctx.index.doc.pages[at.page]!;
  const word = (i: number) => page.words[at.unit.words[i]!]?.text ?? '';
  const span = (from: number, to: number) =>
    Array.from({ length: Math.max(0, to - from) }, (_, k) => word(from + k)).join(' ');
  const units = e.ctx.index.units;
  const unitAt = units.indexOf(at.unit);
  return e.scored.filter((s) => {
    const b = s.cand.at;
    if (s === item || s.cand.source !== item.cand.source || b.page !== at.page) return false;
    // A company listed with a company needs no score of its own: the series vouches for it.
    const companies = s.cand.traits.orgSuffix === 1 && item.cand.traits.orgSuffix === 1;
    if (b.unit !== at.unit) {
      // Semicolons end sentences here, so "cc: Ann Lee; Bo Chan" is two units of one printed
      // line: the member ending one unit on its semicolon and the one opening the next are one series.
      const next = units.indexOf(b.unit);
      const [first, second] = next === unitAt + 1 ? [at, b] : next === unitAt - 1 ? [b, at] : [null, null];
      if (!first || !second || first.unit.line !== second.unit.line || second.from !== 0) return false;
      const last = first.unit.words.length - 1;
      return first.to === last && page.words[first.unit.words[last]!]?.text.endsWith(';') === true;
    }
    if (s.p < floor && !companies) return false;
    const [first, second] = b.from > at.to ? [at, b] : b.to < at.from ? [b, at] : [null, null];
    if (!first || !second) return false;
    // The joining comma may sit on the earlier member's last word ("Acme Corp, Beta LLC").
    const comma = word(first.to).endsWith(',') ? ',' : '';
    const joint = `${comma} ${span(first.to + 1, second.from)}`.trim();
    return SERIES_JOIN.test(joint);
  });
}
