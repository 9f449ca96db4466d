/**
 * Set-level figures shared by the eval scripts (`npm run eval`, leave-one-family-out runs
 * on generated documents): expected calibration error and a compact per-field /
 * per-family accuracy table over scored cells.
 */

/** One answered cell after scoring, whatever it was scored against. */
export interface ScoredCell {
  /** Dataset of the label row, or the generator family. */
  family: string;
  /** Field (label) or question key (generated). */
  field: string;
  outputType: string;
  right: boolean;
  /** Set F1 for list-like rows (list_scalar, image_list), otherwise null. */
  f1: number | null;
  /** The answer's confidence; null when there is none (ERROR), which counts as 0. */
  confidence: number | null;
  /** Right non-null answer with known evidence pages: does a citation point at one? null when not applicable. */
  pageHit: boolean | null;
}

export const ECE_BINS = 10;

/**
 * Expected calibration error: cells go into `bins` equal-width confidence bins over [0, 1]
 * (bin i holds [i/bins, (i+1)/bins), the last one also 1); ECE = Σ_b (n_b / N) ·
 * |accuracy_b − mean confidence_b|. A missing confidence (an ERROR answer) counts as 0;
 * confidences are clamped to [0, 1]. null for no cells.
 */
export function expectedCalibrationError(
  cells: readonly { confidence: number | null; right: boolean }[],
  bins = ECE_BINS,
): number | null {
  if (cells.length === 0) return null;
  const n = new Array<number>(bins).fill(0);
  const right = new Array<number>(bins).fill(0);
  const conf = new Array<number>(bins).fill(0);
  for (const c of cells) {
    const p = Math.min(1, Math.max(0, c.confidence ?? 0));
    const b = Math.min(bins - 1, Math.floor(p * bins));
    n[b]!++;
    conf[b]! += p;
    if (c.right) right[b]!++;
  }
  let ece = 0;
  for (let b = 0; b < bins; b++) {
    if (n[b] === 0) continue;
    ece += (n[b]! / cells.length) * Math.abs(right[b]! / n[b]! - conf[b]! / n[b]!);
  }
  return ece;
}

export interface CellSummary {
  n: number;
  right: number;
  accuracy: number;
  /** Mean F1 over list-like rows; null when there are none. */
  meanF1: number | null;
  meanConfidence: number | null;
  ece: number | null;
  /** Share of page-checked cells citing an evidence page; null when none was checked. */
  pageAccuracy: number | null;
  pageN: number;
}

const mean = (xs: number[]) => (xs.length ? xs.reduce((a, b) => a + b, 0) / xs.length : null);

export function summarize(cells: readonly ScoredCell[]): CellSummary {
  const right = cells.filter((c) => c.right).length;
  const paged = cells.filter((c) => c.pageHit !== null);
  return {
    n: cells.length,
    right,
    accuracy: cells.length ? right / cells.length : 0,
    meanF1: mean(cells.filter((c) => c.f1 !== null).map((c) => c.f1!)),
    meanConfidence: mean(cells.map((c) => Math.min(1, Math.max(0, c.confidence ?? 0)))),
    ece: expectedCalibrationError(cells),
    pageAccuracy: paged.length ? paged.filter((c) => c.pageHit).length / paged.length : null,
    pageN: paged.length,
  };
}

const pct = (x: number | null) => (x === null ? '-' : `${(x * 100).toFixed(1)}%`);
const num = (x: number | null, d = 3) => (x === null ? '-' : x.toFixed(d));

/** One table: a row per group (in the map's order), then an overall row when `total` is given. */
export function accuracyTable(
  title: string,
  groups: Map<string, readonly ScoredCell[]>,
  total?: readonly ScoredCell[],
): string {
  const names = [...groups.keys(), ...(total ? ['overall'] : [])];
  const width = Math.max(title.length, ...names.map((k) => k.length), 8);
  const heads = ['n', 'right', 'acc', 'F1', 'conf', 'ECE', 'page'];
  const widths = [5, 5, 7, 6, 6, 6, 12];
  const line = (name: string, cells: string[]) =>
    [name.padEnd(width), ...cells.map((c, i) => c.padStart(widths[i]!))].join(' ');
  const row = (name: string, cs: readonly ScoredCell[]) => {
    const s = summarize(cs);
    return line(name, [
      String(s.n),
      String(s.right),
      pct(s.accuracy),
      num(s.meanF1, 2),
      num(s.meanConfidence, 2),
      num(s.ece),
      s.pageN ? `${pct(s.pageAccuracy)}/${s.pageN}` : '-',
    ]);
  };
  const head = line(title, heads);
  const out = [head, '-'.repeat(head.length)];
  for (const [name, cs] of groups) out.push(row(name, cs));
  if (total) out.push('-'.repeat(head.length), row('overall', total));
  return out.join('\n');
}

export function groupCells(
  cells: readonly ScoredCell[],
  key: (c: ScoredCell) => string,
): Map<string, ScoredCell[]> {
  const out = new Map<string, ScoredCell[]>();
  for (const c of cells) {
    const k = key(c);
    const list = out.get(k);
    if (list) list.push(c);
    else out.set(k, [c]);
  }
  return out;
}

/** Per-field (`family/field`) and per-family tables, each with an overall row. */
export function fieldFamilyTables(cells: readonly ScoredCell[]): string {
  return [
    accuracyTable(
      'field',
      groupCells(cells, (c) => `${c.family}/${c.field}`),
      cells,
    ),
    accuracyTable(
      'family',
      groupCells(cells, (c) => c.family),
      cells,
    ),
  ].join('\n\n');
}

export const CELL_LEGEND =
  'acc = right/n; F1 = mean set F1 of list rows; conf = mean confidence (ERROR = 0); ' +
  `ECE = expected calibration error over ${ECE_BINS} equal-width confidence bins; ` +
  'page = right non-null answers citing a page that holds the evidence / how many such answers.';
