/** Aggregating scored rows into per-field / per-type / overall figures, and printing them. */
import { expectedCalibrationError, type ScoredCell } from './metrics.ts';
import type { CitationScore, Rule } from './score.ts';

export interface RowResult {
  /** Document file name (basename). */
  doc: string;
  dataset: string;
  field: string;
  type: string;
  rule: Rule;
  expected: unknown;
  /** The answer's raw value (null unless SUCCESS). */
  got: unknown;
  status: 'SUCCESS' | 'ERROR' | 'INGEST_ERROR';
  statusText: string | null;
  right: boolean;
  f1: number | null;
  confidence: number | null;
  expectedNorm: string;
  gotNorm: string;
  shape: string[];
  citations: CitationScore;
  /** Citations as answered (page, quote), for reading wrong answers. */
  cited: { page: number; quote: string }[];
  ms: number;
}

export interface GroupStats {
  n: number;
  right: number;
  accuracy: number;
  /** Mean set F1 over list rows; null when the group has none. */
  meanF1: number | null;
  success: number;
  errors: number;
  ingestErrors: number;
  nullLabels: number;
  nullRight: number;
  valueLabels: number;
  valueRight: number;
  /** SUCCESS answers whose value breaks the output-type contract. */
  shapeIssues: number;
  answersWithCitations: number;
  /** SUCCESS answers with a value but no citation. */
  uncitedValues: number;
  /** Mean over answers with citations of the share of their quotes found on the cited page. */
  quoteFoundRate: number | null;
  citations: number;
  /** Right non-null answers with evidence pages: share with a citation on one of them. */
  pageAccuracy: number | null;
  pageN: number;
  boxValid: number;
  boxNull: number;
  boxInvalid: number;
  /** Share of citation boxes inside [0,1] and non-empty (null boxes count as not valid). */
  boxValidRate: number | null;
  meanConfidenceRight: number | null;
  meanConfidenceWrong: number | null;
  /** Expected calibration error over all rows (metrics.ts; no confidence counts as 0). */
  ece: number | null;
}

const mean = (xs: number[]) => (xs.length ? xs.reduce((a, b) => a + b, 0) / xs.length : null);

export function stats(rows: RowResult[]): GroupStats {
  const lists = rows.filter((r) => r.f1 !== null);
  const withCites = rows.filter((r) => r.citations.count > 0);
  const paged = rows.filter((r) => r.citations.pageHit !== null);
  const sum = (f: (r: RowResult) => number) => rows.reduce((a, r) => a + f(r), 0);
  const citations = sum((r) => r.citations.count);
  const boxValid = sum((r) => r.citations.boxValid);
  const isNull = (r: RowResult) =>
    r.expected === null || (Array.isArray(r.expected) && r.expected.length === 0);
  const right = rows.filter((r) => r.right).length;
  return {
    n: rows.length,
    right,
    accuracy: rows.length ? right / rows.length : 0,
    meanF1: mean(lists.map((r) => r.f1!)),
    success: rows.filter((r) => r.status === 'SUCCESS').length,
    errors: rows.filter((r) => r.status === 'ERROR').length,
    ingestErrors: rows.filter((r) => r.status === 'INGEST_ERROR').length,
    nullLabels: rows.filter(isNull).length,
    nullRight: rows.filter((r) => isNull(r) && r.right).length,
    valueLabels: rows.filter((r) => !isNull(r)).length,
    valueRight: rows.filter((r) => !isNull(r) && r.right).length,
    shapeIssues: rows.filter((r) => r.shape.length > 0).length,
    answersWithCitations: withCites.length,
    uncitedValues: rows.filter(
      (r) =>
        r.status === 'SUCCESS' &&
        r.citations.count === 0 &&
        r.got !== null &&
        r.got !== '' &&
        !(Array.isArray(r.got) && r.got.length === 0),
    ).length,
    quoteFoundRate: mean(withCites.map((r) => r.citations.quoteFound / r.citations.count)),
    citations,
    pageAccuracy: paged.length ? paged.filter((r) => r.citations.pageHit).length / paged.length : null,
    pageN: paged.length,
    boxValid,
    boxNull: sum((r) => r.citations.boxNull),
    boxInvalid: sum((r) => r.citations.boxInvalid),
    boxValidRate: citations ? boxValid / citations : null,
    meanConfidenceRight: mean(rows.filter((r) => r.right && r.confidence !== null).map((r) => r.confidence!)),
    meanConfidenceWrong: mean(
      rows.filter((r) => !r.right && r.confidence !== null).map((r) => r.confidence!),
    ),
    ece: expectedCalibrationError(rows),
  };
}

/** A scored corpus row as a cell for the shared tables and metrics of metrics.ts. */
export function toCell(r: RowResult): ScoredCell {
  return {
    family: r.dataset,
    field: r.field,
    outputType: r.type,
    right: r.right,
    f1: r.f1,
    confidence: r.confidence,
    pageHit: r.citations.pageHit,
  };
}

export function groupBy(rows: RowResult[], key: (r: RowResult) => string): Map<string, RowResult[]> {
  const out = new Map<string, RowResult[]>();
  for (const r of rows) {
    const k = key(r);
    const list = out.get(k);
    if (list) list.push(r);
    else out.set(k, [r]);
  }
  return out;
}

const pct = (x: number | null) => (x === null ? '-' : `${(x * 100).toFixed(0)}%`);
const num = (x: number | null, d = 2) => (x === null ? '-' : x.toFixed(d));

interface Col {
  head: string;
  width: number;
  left?: boolean;
  get: (name: string, s: GroupStats, rows: RowResult[]) => string;
}

const COLS: Col[] = [
  { head: '', width: 28, left: true, get: (name) => name },
  {
    head: 'type',
    width: 12,
    left: true,
    get: (_, __, rows) => {
      const types = new Set(rows.map((r) => r.type));
      return types.size === 1 ? [...types][0]! : 'mixed';
    },
  },
  { head: 'n', width: 4, get: (_, s) => String(s.n) },
  { head: 'right', width: 5, get: (_, s) => String(s.right) },
  { head: 'acc', width: 5, get: (_, s) => pct(s.accuracy) },
  { head: 'F1', width: 5, get: (_, s) => num(s.meanF1) },
  { head: 'null ok', width: 7, get: (_, s) => `${s.nullRight}/${s.nullLabels}` },
  { head: 'val ok', width: 7, get: (_, s) => `${s.valueRight}/${s.valueLabels}` },
  { head: 'ERR', width: 4, get: (_, s) => String(s.errors + s.ingestErrors) },
  { head: 'shape', width: 5, get: (_, s) => String(s.shapeIssues) },
  { head: 'quote', width: 5, get: (_, s) => pct(s.quoteFoundRate) },
  { head: 'page', width: 9, get: (_, s) => (s.pageN ? `${pct(s.pageAccuracy)}/${s.pageN}` : '-') },
  { head: 'box', width: 5, get: (_, s) => pct(s.boxValidRate) },
  { head: 'conf R', width: 6, get: (_, s) => num(s.meanConfidenceRight) },
  { head: 'conf W', width: 6, get: (_, s) => num(s.meanConfidenceWrong) },
];

export function table(title: string, groups: Map<string, RowResult[]>, total?: RowResult[]): string {
  const line = (cells: string[]) =>
    cells.map((c, i) => (COLS[i]!.left ? c.padEnd(COLS[i]!.width) : c.padStart(COLS[i]!.width))).join(' ');
  const out = [line(COLS.map((c, i) => (i === 0 ? title : c.head)))];
  out.push('-'.repeat(out[0]!.length));
  for (const [name, rows] of groups) {
    const s = stats(rows);
    out.push(line(COLS.map((c) => c.get(name, s, rows))));
  }
  if (total) {
    out.push('-'.repeat(out[0]!.length));
    const s = stats(total);
    out.push(line(COLS.map((c) => c.get('overall', s, total))));
  }
  return out.join('\n');
}

export const LEGEND = [
  'acc = right/n (a list row is right when its set F1 = 1); F1 = mean set F1 of list rows;',
  'null ok = right among labels with no value (needs SUCCESS with a null value); val ok = right among the others;',
  'ERR = ERROR answers (and documents that failed ingest), all counted wrong; shape = SUCCESS values breaking the type contract;',
  'quote = mean share of an answer’s citation quotes found on the cited page (whitespace collapsed);',
  'page = right non-null answers citing a page where the label’s evidence appears / how many such answers;',
  'box = citation boxes inside [0,1] and non-empty (null boxes count as not valid); conf R/W = mean confidence of right/wrong answers.',
].join('\n');
