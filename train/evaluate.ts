/**
 * Scores a model on examples in-process (no HTTP, no database): the same answers the
 * engine gives through a run, scored like generated documents (bench/eval/score-generated.ts).
 */
import { expectedCalibrationError, type ScoredCell } from '../bench/eval/metrics.ts';
import { scoreGenerated } from '../bench/eval/score-generated.ts';
import { answerLocally } from '../src/engine/local/engine.ts';
import type { ScorerModel } from '../src/engine/local/model.ts';
import type { Example } from './examples.ts';

export interface Evaluation {
  cells: ScoredCell[];
  accuracy: number;
  ece: number | null;
  pageAccuracy: number | null;
  cellsPerSecond: number;
}

const norm = (s: string) => s.toLowerCase().replace(/[^\p{L}\p{N}]+/gu, '');

export function evaluate(examples: Example[], model: ScorerModel): Evaluation {
  const cells: ScoredCell[] = [];
  let engineMs = 0;
  for (const ex of examples) {
    const t0 = performance.now();
    const a = answerLocally(ex.column, { kind: 'file', documents: [ex.doc] }, model);
    engineMs += performance.now() - t0;
    const value = a.status === 'SUCCESS' ? a.value : null;
    const s = scoreGenerated(ex.column.outputType, ex.gold, value);
    // A right, non-null answer: does one of its citations sit on a page holding the evidence?
    let pageHit: boolean | null = null;
    if (s.right && a.status === 'SUCCESS' && ex.evidence.length && ex.gold !== null) {
      const pages = new Set(ex.evidence.map((e) => e.page));
      pageHit = a.citations.some((c) => pages.has(c.page));
    }
    cells.push({
      family: ex.family,
      field: ex.key,
      outputType: ex.column.outputType,
      right: s.right,
      f1: s.f1,
      confidence: a.status === 'SUCCESS' ? a.confidence : null,
      pageHit,
    });
  }
  const pages = cells.filter((c) => c.pageHit !== null);
  return {
    cells,
    accuracy: cells.filter((c) => c.right).length / (cells.length || 1),
    ece: expectedCalibrationError(cells),
    pageAccuracy: pages.length ? pages.filter((c) => c.pageHit).length / pages.length : null,
    cellsPerSecond: cells.length / (engineMs / 1000 || 1),
  };
}

export { norm };
