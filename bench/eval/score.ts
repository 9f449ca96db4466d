/**
 * Scoring one engine answer against one corpus label: value (per the field's matching
 * rule) and citations (quote on the cited page, page among the evidence pages, box).
 */
import type { OutputType } from '../../src/domain/columns.ts';
import type { Citation, EngineAnswer, EnginePage } from '../../src/engine/types.ts';
import { collapseWs, FUZZY_THRESHOLD, normCompact, normDuration, normText, similarity } from './normalize.ts';

/** One entry of fields.json. */
export interface FieldSpec {
  dataset: string;
  field: string;
  outputType: OutputType;
  prompt: string;
  config: Record<string, unknown> | null;
  match: string;
}

/** One line of labels.jsonl. */
export interface LabelRow {
  file: string;
  dataset: string;
  field: string;
  type: string;
  answer: string | number | boolean | string[] | null;
  page?: number;
  quote?: string;
  evidence?: { page: number; quote: string; value?: string; match?: string; source?: string }[];
  verified?: boolean | null;
  derived?: boolean;
  note?: string;
}

export type Rule =
  | 'date'
  | 'number'
  | 'exact-ci'
  | 'text'
  | 'text-fuzzy'
  | 'text-contains'
  | 'duration'
  | 'compact'
  | 'list-fuzzy';

/** The matching rule of a field, read from its output type and its fields.json `match` text. */
export function ruleFor(spec: FieldSpec): Rule {
  switch (spec.outputType) {
    case 'date':
      return 'date';
    case 'number':
      return 'number';
    case 'boolean':
    case 'categorical':
      return 'exact-ci';
    case 'list_scalar':
      return 'list-fuzzy';
    default: {
      const m = spec.match.toLowerCase();
      if (m.includes('removing spaces')) return 'compact';
      if (m.includes('<number> <unit>')) return 'duration';
      if (m.includes('fuzzy') && m.includes('contains the label')) return 'text-contains';
      if (m.includes('fuzzy')) return 'text-fuzzy';
      return 'text';
    }
  }
}

export interface ValueScore {
  right: boolean;
  /** Set F1 for list fields (1 for a right null), otherwise null. */
  f1: number | null;
  /** What the answer was compared as, for reports (normalised forms). */
  expectedNorm: string;
  gotNorm: string;
  /** Ways the value breaks the contract (wrong `type`, a string for a number, ...); still scored leniently. */
  shape: string[];
}

export interface CitationScore {
  count: number;
  /** Citations whose quote (whitespace collapsed) occurs on the cited page of the cited file. */
  quoteFound: number;
  boxValid: number;
  boxNull: number;
  boxInvalid: number;
  /** Right non-null answer with known evidence pages: does a citation point at one? null when not applicable. */
  pageHit: boolean | null;
}

const isBlank = (v: unknown) =>
  v === null ||
  v === undefined ||
  (typeof v === 'string' && v.trim() === '') ||
  (Array.isArray(v) && v.length === 0);

/** Does normalised text `hay` contain normalised `needle` as whole words? */
export function containsWords(hay: string, needle: string): boolean {
  return needle !== '' && ` ${hay} `.includes(` ${needle} `);
}

/** Greedy one-to-one matching of normalised items, best similarity first; returns matched pairs. */
export function matchItems(expected: string[], got: string[]): number {
  const E = [...new Set(expected.map(normText))].filter(Boolean);
  const G = [...new Set(got.map(normText))].filter(Boolean);
  const pairs: { i: number; j: number; s: number }[] = [];
  for (const [i, e] of E.entries()) {
    for (const [j, g] of G.entries()) {
      const s = similarity(e, g);
      if (s >= FUZZY_THRESHOLD) pairs.push({ i, j, s });
    }
  }
  pairs.sort((a, b) => b.s - a.s);
  const usedE = new Set<number>();
  const usedG = new Set<number>();
  for (const p of pairs) {
    if (usedE.has(p.i) || usedG.has(p.j)) continue;
    usedE.add(p.i);
    usedG.add(p.j);
  }
  return usedE.size;
}

export function listF1(expected: string[], got: string[]): number {
  const e = new Set(expected.map(normText).filter(Boolean)).size;
  const g = new Set(got.map(normText).filter(Boolean)).size;
  if (e === 0 && g === 0) return 1;
  if (e === 0 || g === 0) return 0;
  const m = matchItems(expected, got);
  const precision = m / g;
  const recall = m / e;
  return precision + recall === 0 ? 0 : (2 * precision * recall) / (precision + recall);
}

function toNumber(v: unknown, shape: string[]): number | null {
  if (typeof v === 'number') return Number.isFinite(v) ? v : null;
  if (typeof v === 'string') {
    shape.push('number given as a string');
    const n = Number(v.replace(/[$,\s]/g, ''));
    return v.trim() !== '' && Number.isFinite(n) ? n : null;
  }
  shape.push(`number given as ${Array.isArray(v) ? 'array' : typeof v}`);
  return null;
}

function toBoolean(v: unknown, shape: string[]): boolean | null {
  if (typeof v === 'boolean') return v;
  if (typeof v === 'string') {
    shape.push('boolean given as a string');
    const s = v.trim().toLowerCase();
    if (s === 'yes' || s === 'true') return true;
    if (s === 'no' || s === 'false') return false;
    return null;
  }
  shape.push(`boolean given as ${Array.isArray(v) ? 'array' : typeof v}`);
  return null;
}

function toText(v: unknown, shape: string[], what: string): string {
  if (typeof v === 'string') return v;
  shape.push(`${what} given as ${Array.isArray(v) ? 'array' : typeof v}`);
  return Array.isArray(v) ? v.join(' ') : String(v);
}

const show = (v: unknown) => (v === null || v === undefined ? 'null' : JSON.stringify(v));

/** The raw value of a SUCCESS answer (null for anything else), plus contract breaches of its shape. */
export function answerValue(answer: EngineAnswer, spec: FieldSpec): { value: unknown; shape: string[] } {
  const shape: string[] = [];
  if (answer.status !== 'SUCCESS') return { value: null, shape };
  const v = answer.value as unknown;
  if (Array.isArray(v)) {
    shape.push(`regions given for a ${spec.outputType} column`);
    return { value: null, shape };
  }
  if (!v || typeof v !== 'object' || !('value' in v)) {
    shape.push('value is not {type, value}');
    return { value: null, shape };
  }
  const typed = v as { type?: unknown; value: unknown };
  if (typed.type !== spec.outputType) shape.push(`type ${show(typed.type)} for a ${spec.outputType} column`);
  const x = typed.value;
  if (x !== null) {
    if (spec.outputType === 'date' && !(typeof x === 'string' && /^\d{4}-\d{2}-\d{2}$/.test(x)))
      shape.push('date is not YYYY-MM-DD');
    if (spec.outputType === 'categorical') {
      const cats = Array.isArray(spec.config?.categories) ? (spec.config.categories as string[]) : null;
      if (cats && !(typeof x === 'string' && cats.includes(x)))
        shape.push('not one of config.categories (verbatim)');
    }
    if (spec.outputType === 'list_scalar' && !(Array.isArray(x) && x.every((i) => typeof i === 'string')))
      shape.push('list is not an array of strings');
  }
  return { value: x, shape };
}

/** Scores the value of an answer; ERROR (and anything but SUCCESS) is wrong. */
export function scoreValue(spec: FieldSpec, label: LabelRow['answer'], answer: EngineAnswer): ValueScore {
  const rule = ruleFor(spec);
  const { value, shape } = answerValue(answer, spec);
  const expectedShown = show(label);
  if (answer.status !== 'SUCCESS') {
    return {
      right: false,
      f1: rule === 'list-fuzzy' ? 0 : null,
      expectedNorm: expectedShown,
      gotNorm: 'ERROR',
      shape,
    };
  }
  const gotBlank = isBlank(value);
  if (label === null || (Array.isArray(label) && label.length === 0)) {
    const right = gotBlank;
    return {
      right,
      f1: rule === 'list-fuzzy' ? (right ? 1 : 0) : null,
      expectedNorm: 'null',
      gotNorm: show(value),
      shape,
    };
  }
  if (gotBlank) {
    return {
      right: false,
      f1: rule === 'list-fuzzy' ? 0 : null,
      expectedNorm: expectedShown,
      gotNorm: 'null',
      shape,
    };
  }
  switch (rule) {
    case 'date': {
      const got = toText(value, shape, 'date').trim();
      return { right: got === label, f1: null, expectedNorm: String(label), gotNorm: got, shape };
    }
    case 'number': {
      const got = toNumber(value, shape);
      const right = got !== null && Math.abs(got - Number(label)) < 0.01;
      return { right, f1: null, expectedNorm: String(label), gotNorm: show(got), shape };
    }
    case 'exact-ci': {
      if (spec.outputType === 'boolean') {
        const got = toBoolean(value, shape);
        return { right: got === label, f1: null, expectedNorm: String(label), gotNorm: show(got), shape };
      }
      const got = toText(value, shape, 'category').trim();
      const right = got.toLowerCase() === String(label).trim().toLowerCase();
      return { right, f1: null, expectedNorm: String(label), gotNorm: got, shape };
    }
    case 'list-fuzzy': {
      const exp = Array.isArray(label) ? label : [String(label)];
      const got = Array.isArray(value) ? value.map(String) : [toText(value, shape, 'list')];
      const f1 = listF1(exp, got);
      return {
        right: f1 === 1,
        f1,
        expectedNorm: exp.map(normText).join(' | '),
        gotNorm: got.map(normText).join(' | '),
        shape,
      };
    }
    case 'duration': {
      const e = normDuration(String(label));
      const g = normDuration(toText(value, shape, 'text'));
      return { right: e === g, f1: null, expectedNorm: e, gotNorm: g, shape };
    }
    case 'compact': {
      const e = normCompact(String(label));
      const g = normCompact(toText(value, shape, 'text'));
      return { right: e === g, f1: null, expectedNorm: e, gotNorm: g, shape };
    }
    case 'text-fuzzy':
    case 'text-contains': {
      const got = toText(value, shape, 'text');
      const s = similarity(String(label), got);
      const contains = rule === 'text-contains' && containsWords(normText(got), normText(String(label)));
      return {
        right: s >= FUZZY_THRESHOLD || contains,
        f1: null,
        expectedNorm: normText(String(label)),
        gotNorm: `${normText(got)} (sim ${s.toFixed(2)}${contains ? ', contains the label' : ''})`,
        shape,
      };
    }
    case 'text': {
      const e = normText(String(label));
      const g = normText(toText(value, shape, 'text'));
      return { right: e === g, f1: null, expectedNorm: e, gotNorm: g, shape };
    }
  }
}

/**
 * Pages on which the label's evidence appears: the pages the label names, plus every
 * page of the stored text containing an evidence quote (case-insensitive, whitespace
 * collapsed), since the corpus records only the first occurrence.
 */
export function evidencePages(label: LabelRow, pages: EnginePage[]): Set<number> {
  const out = new Set<number>();
  const quotes: string[] = [];
  for (const e of label.evidence ?? []) {
    out.add(e.page);
    if (e.quote) quotes.push(collapseWs(e.quote).toLowerCase());
  }
  if (label.page !== undefined) out.add(label.page);
  if (label.quote) quotes.push(collapseWs(label.quote).toLowerCase());
  for (const p of pages) {
    const text = collapseWs(p.text).toLowerCase();
    if (quotes.some((q) => q && text.includes(q))) out.add(p.page);
  }
  return out;
}

export function boxState(c: Citation): 'valid' | 'null' | 'invalid' {
  if (c.box === null || c.box === undefined) return 'null';
  const b = c.box;
  if (!Array.isArray(b) || b.length !== 4 || !b.every((x) => typeof x === 'number' && Number.isFinite(x))) {
    return 'invalid';
  }
  const [x0, y0, x1, y1] = b;
  const inside = b.every((x) => x >= 0 && x <= 1);
  return inside && x0 < x1 && y0 < y1 ? 'valid' : 'invalid';
}

/**
 * Citations of a SUCCESS answer. `pagesByFile` holds the stored text of every page the
 * engine could have cited; `evidence` is null when the label gives no evidence page.
 */
export function scoreCitations(
  answer: EngineAnswer,
  pagesByFile: Map<string, EnginePage[]>,
  evidence: Set<number> | null,
  fileId: string,
  valueRight: boolean,
  labelIsNull: boolean,
): CitationScore {
  const out: CitationScore = {
    count: 0,
    quoteFound: 0,
    boxValid: 0,
    boxNull: 0,
    boxInvalid: 0,
    pageHit: null,
  };
  if (answer.status !== 'SUCCESS') return out;
  const citations = Array.isArray(answer.citations) ? answer.citations : [];
  for (const c of citations) {
    out.count++;
    const page = pagesByFile.get(c.fileId)?.find((p) => p.page === c.page);
    const quote = typeof c.quote === 'string' ? collapseWs(c.quote) : '';
    if (page && quote !== '' && collapseWs(page.text).includes(quote)) out.quoteFound++;
    const state = boxState(c);
    if (state === 'valid') out.boxValid++;
    else if (state === 'null') out.boxNull++;
    else out.boxInvalid++;
  }
  if (valueRight && !labelIsNull && evidence && evidence.size > 0) {
    out.pageHit = citations.some((c) => c.fileId === fileId && evidence.has(c.page));
  }
  return out;
}
