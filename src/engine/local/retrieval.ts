import { type Segment, segmentBelow } from '../text/layout.ts';
import { contentStems } from '../text/tokenize.ts';
import type { DocIndex, Passage } from './doc-index.ts';
import type { Query } from './query.ts';
import { maskCounterparts } from './roles.ts';

const K1 = 1.2;
const B = 0.75;

export interface Scored {
  passage: Passage;
  score: number;
}

/** BM25 over the document's passages with weighted query terms, plus a coverage boost. */
export function scorePassages(index: DocIndex, query: Query): Float64Array {
  const n = index.passages.length;
  const out = new Float64Array(n);
  const idf = new Map<string, number>();
  for (const [t] of query.weights) {
    const df = index.df.get(t) ?? 0;
    idf.set(t, Math.log(1 + (n - df + 0.5) / (df + 0.5)));
  }
  const promptTerms = new Set(query.terms);
  for (const p of index.passages) {
    let s = 0;
    let covered = 0;
    const len = p.stems.length || 1;
    for (const [t, w] of query.weights) {
      const f = p.tf.get(t);
      if (!f) continue;
      s += w * idf.get(t)! * ((f * (K1 + 1)) / (f + K1 * (1 - B + (B * len) / index.avgLength)));
      if (promptTerms.has(t)) covered++;
    }
    // Passages holding more of the prompt's distinct words beat ones repeating one word.
    if (promptTerms.size > 1) s *= 1 + covered / promptTerms.size;
    out[p.id] = s;
  }
  return out;
}

export function topPassages(
  index: DocIndex,
  scores: Float64Array,
  k: number,
  kinds?: Passage['kind'][],
): Scored[] {
  const list: Scored[] = [];
  for (const p of index.passages) {
    if (scores[p.id]! > 0 && (!kinds || kinds.includes(p.kind)))
      list.push({ passage: p, score: scores[p.id]! });
  }
  list.sort((a, b) => b.score - a.score);
  return list.slice(0, k);
}

/** Words in a label's parentheses weigh this much of its other words. */
const ASIDE_SHARE = 0.5;

/**
 * How much a short piece of text reads like a label for the asked field: the weighted share
 * of its words that are query words ("Total Due", "Ship Date:", "Order #").
 */
export function labelScore(caption: string, query: Query): number {
  const text = maskCounterparts(query.counterparts, caption);
  // Numbers beside a label ("05/31/20 Ship Date") are values, not label words.
  const stemsOf = (t: string) => contentStems(t).filter((s) => !/^\d+$/.test(s));
  const stems = stemsOf(text);
  if (stems.length === 0 || stems.length > 8) return 0;
  // Words in parentheses clarify the label ("Principals (name and title)"): their hits count half.
  const main = stemsOf(text.replace(/\([^)]*\)/g, ' '));
  const aside =
    main.length && main.length < stems.length
      ? stemsOf([...text.matchAll(/\(([^)]*)\)/g)].map((m) => m[1]).join(' '))
      : [];
  const counted = aside.length ? main : stems;
  let hit = 0;
  for (const s of counted) hit += query.weights.get(s) ?? 0;
  for (const s of aside) hit += ASIDE_SHARE * (query.weights.get(s) ?? 0);
  const promptHits = stems.filter((s) => query.weights.get(s) === 1).length;
  // A clarification adds what it matches but takes nothing away: "Approved by (name and
  // signature)" is as much the approver's caption as "Approved by".
  const share = Math.min(1, hit / counted.length);
  // A label in the document's own words ("Period" for billing dates) counts, at half strength.
  if (promptHits === 0) return share >= 0.3 ? share * 0.5 : 0;
  return share * Math.min(1, 0.6 + 0.4 * (promptHits - 1));
}

/** Where a candidate value sits: page, the unit it was read from and its word positions. */
export interface Located {
  page: number;
  unit: Passage;
  /** Positions in unit.words. */
  from: number;
  to: number;
}

export interface Evidence {
  /** Relevance of the text around the value, 0-1 relative to the best passage of the document. */
  relevance: number;
  /** A label naming the field sits just before the value, left of it or above it. */
  label: number;
  /** Query words close to the value in its sentence. */
  proximity: number;
  /** The label score by where the label sits: left cell, cell above, row × column headers, words before. */
  left: number;
  above: number;
  table: number;
  prefix: number;
  /** The text a reader takes for the value's label (words before it, else the cell left, else above). */
  nearText: string;
  /** The words before the value name another thing it belongs to ("a Supply Agreement dated as of"). */
  another: boolean;
}

/** The most words a caption runs to; a unit of more is prose. */
const CAPTION_WORDS = 8;

/**
 * Scores the evidence for a value found at `at`: the relevance of its sentence or line,
 * a label to its left on the line or above it, and query words near it.
 */
export function evidenceFor(
  index: DocIndex,
  query: Query,
  scores: Float64Array,
  best: number,
  at: Located,
  /** Leave out the relevance a short unit has by the value's own words (the learned scorer; not the rules). */
  skipEcho = false,
): Evidence {
  const unit = at.unit;
  const layout = index.layouts[at.page]!;
  const line = layout.lines[unit.line]!;
  // A short unit the value fills alone ("Purpose of request" over its box) is relevant by its own
  // words only: it echoes the question, and says nothing of a value beside it. Its label says
  // what it is of; a clause answering in its own words is a sentence, longer than a caption.
  const echo =
    skipEcho && at.from === 0 && at.to === unit.words.length - 1 && unit.words.length <= CAPTION_WORDS;
  let rel = echo ? 0 : scores[unit.id]!;
  let label = 0;
  let leftScore = 0;
  let aboveScore = 0;
  let tableScore = 0;
  let nearText = '';
  if (unit.kind === 'segment') {
    const lineP = index.lines.get(`${at.page}:${unit.line}`);
    const segs = line.segments;
    const k = segs.findIndex((s) => s.words[0] === unit.words[0]);
    // The printed line around a segment, unless the segment opens it and echoes the question:
    // then the line's match is the segment's own words.
    if (lineP && !(echo && k === 0)) rel = Math.max(rel, scores[lineP.id]! * 0.9);
    // The label left of the value on the same line, or the value's own segment prefix.
    if (k > 0) {
      nearText = segs[k - 1]!.text;
      leftScore = labelScore(segs[k - 1]!.text, query);
      label = Math.max(label, leftScore);
      // A label run together with other text on its left ("REMIT TO ... Customer").
      const left = segs[k - 1]!.text.split(' ');
      for (let n = 1; n <= Math.min(3, left.length - 1); n++) {
        leftScore = Math.max(leftScore, 0.9 * labelScore(left.slice(-n).join(' '), query));
      }
      label = Math.max(label, leftScore);
    }
    if (k > 1) label = Math.max(label, 0.6 * labelScore(segs[k - 2]!.text, query));
    // A header above the value (table column or form box).
    const above = segmentAbove(index, at.page, segs[k] ?? null);
    if (above) {
      aboveScore = labelScore(above.text, query);
      label = Math.max(label, 0.85 * aboveScore);
      if (!nearText) nearText = above.text;
    }
    // A table cell is named by its row header and its column header together ("Totals" x "Net Price").
    const seg = segs[k];
    if (seg && k > 0) {
      const row = labelScore(segs[0]!.text, query);
      const column = columnHeaderScore(index, at.page, seg, query);
      if (row > 0 && column > 0) {
        tableScore = Math.min(1, row + column);
        label = Math.max(label, tableScore * 0.9);
      }
    }
  }
  // Words before the value within its own unit ("Invoice # 123", "governed by the laws of").
  const page = index.doc.pages[at.page]!;
  // Only words on the value's own printed line: a sentence unit can run over several lines.
  const firstBox = page.words[unit.words[at.from]!]!.box;
  const prefix = unit.words
    .slice(Math.max(0, at.from - 4), at.from)
    .filter((w) => {
      const b = page.words[w]!.box;
      return Math.min(b[3], firstBox[3]) - Math.max(b[1], firstBox[1]) > 0.4 * (firstBox[3] - firstBox[1]);
    })
    .map((w) => page.words[w]!.text)
    .join(' ');
  const another = anotherThingAt(index, at, query);
  const prefixScore = prefix && another < 0 ? labelScore(prefix, query) : 0;
  if (prefix) {
    label = Math.max(label, 0.9 * prefixScore);
    nearText = prefix;
  }
  // Proximity: distance in words to the nearest prompt term in the unit.
  let nearest = Number.POSITIVE_INFINITY;
  for (let k = 0; k < unit.stems.length; k++) {
    if (query.weights.get(unit.stems[k]!) !== 1) continue;
    const pos = unit.stemAt[k]!;
    const d = pos < at.from ? at.from - pos : pos > at.to ? pos - at.to : 0;
    if (d < nearest) nearest = d;
  }
  const proximity = Number.isFinite(nearest) ? 1 / (1 + nearest / 6) : 0;
  // A unit that matches the question only inside the phrase naming another thing ("a Supply
  // Agreement dated as of": "dated" for "date") is no passage about what is asked.
  if (another >= 0 && matchedOnlyWithin(unit, query, another, at.from)) rel = 0;
  // A value under or beside its label is as relevant as the label is a match.
  const relevance = Math.max(best > 0 ? Math.min(1, rel / best) : 0, label);
  return {
    relevance,
    label,
    proximity,
    left: leftScore,
    above: aboveScore,
    table: tableScore,
    prefix: prefixScore,
    nearText,
    another: another >= 0,
  };
}

const MADE = /^(?:dated|signed|executed|made|issued|sent|written)$/i;
/** Words that open a noun phrase naming a thing other than the document itself. */
const ANOTHER = /^(?:a|an|any|each|another|your|their|its|his|her|our)$/i;
const OPENER = /^(?:a|an|any|each|another|your|their|its|his|her|our|this|that|the|these|those)$/i;

/**
 * The words before a value say whose it is: "a Master Services Agreement dated as of 9 January",
 * "your letter dated 3 May" date another document, not this one, and a question about "the
 * agreement's date" finds its label words there only by the shared head noun. Such a prefix is
 * the question's label only when the question names that other thing by its own words. Returns
 * where the phrase naming the other thing opens, as a position in the value's unit; -1 if none.
 */
function anotherThingAt(index: DocIndex, at: Located, query: Query): number {
  const page = index.doc.pages[at.page]!;
  const text = (i: number) => page.words[at.unit.words[i]!]!.text;
  const letters = (i: number) => text(i).replace(/[^\p{L}]/gu, '');
  let made = -1;
  for (let i = at.from - 1; i >= Math.max(0, at.from - 4) && made < 0; i--)
    if (MADE.test(letters(i))) made = i;
  if (made < 0) return -1;
  let opener = -1;
  for (let i = made - 1; i >= Math.max(0, at.from - 12) && opener < 0; i--) {
    if (/[,;:.]$/.test(text(i))) break;
    if (OPENER.test(letters(i))) opener = i;
  }
  if (opener < 0 || !ANOTHER.test(letters(opener))) return -1;
  // The phrase's own words, short of its head noun ("master", "services" of "Agreement").
  const own: string[] = [];
  for (let i = opener + 1; i < made - 1; i++) own.push(text(i));
  return contentStems(own.join(' ')).some((s) => query.weights.get(s) === 1) ? -1 : opener;
}

function matchedOnlyWithin(unit: Passage, query: Query, from: number, to: number): boolean {
  for (let k = 0; k < unit.stems.length; k++) {
    if (!query.weights.get(unit.stems[k]!)) continue;
    const pos = unit.stemAt[k]!;
    if (pos < from || pos >= to) return false;
  }
  return true;
}

/** The best label among the cells above `seg` in its column, up to a few lines up. */
function columnHeaderScore(index: DocIndex, page: number, seg: Segment, query: Query): number {
  const layout = index.layouts[page]!;
  let best = 0;
  for (let l = seg.line - 1; l >= Math.max(0, seg.line - 8); l--) {
    for (const s of layout.lines[l]!.segments) {
      const overlap = Math.min(s.box[2], seg.box[2]) - Math.max(s.box[0], seg.box[0]);
      if (overlap > 0) best = Math.max(best, labelScore(s.text, query));
    }
  }
  return best;
}

function segmentAbove(index: DocIndex, page: number, seg: Segment | null): Segment | null {
  if (!seg) return null;
  const layout = index.layouts[page]!;
  for (let l = seg.line - 1; l >= Math.max(0, seg.line - 2); l--) {
    for (const s of layout.lines[l]!.segments) {
      const below = segmentBelow(layout, s);
      if (below === seg) return s;
    }
  }
  return null;
}

export function maxScore(scores: Float64Array): number {
  let m = 0;
  for (const s of scores) if (s > m) m = s;
  return m;
}
