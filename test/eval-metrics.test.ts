/** Unit tests of the eval's scoring pieces (bench/eval): ECE, scoring generated answers, the targets. */
import { describe, expect, it } from 'vitest';
import {
  accuracyTable,
  expectedCalibrationError,
  type ScoredCell,
  summarize,
} from '../bench/eval/metrics.ts';
import { type FieldSpec, ruleFor, scoreValue } from '../bench/eval/score.ts';
import { boxIoU, scoreGenerated } from '../bench/eval/score-generated.ts';
import { checkTargets } from '../bench/eval/targets.ts';
import type { AnswerValue, Box, EngineAnswer, Region } from '../src/engine/types.ts';

const cell = (confidence: number | null, right: boolean) => ({ confidence, right });

describe('expectedCalibrationError', () => {
  it('is null without cells and 0 when confident and right', () => {
    expect(expectedCalibrationError([])).toBeNull();
    expect(expectedCalibrationError([cell(1, true), cell(1, true)])).toBe(0);
  });

  it('is |accuracy − confidence| for one bin', () => {
    // bin 9: accuracy 0.5, mean confidence 0.9
    expect(expectedCalibrationError([cell(0.9, true), cell(0.9, false)])).toBeCloseTo(0.4, 10);
    // 1.0 falls in the last bin with 0.9: accuracy 0.5, mean confidence 0.95
    expect(expectedCalibrationError([cell(1, true), cell(0.9, false)])).toBeCloseTo(0.45, 10);
  });

  it('weights each bin by its share of the cells', () => {
    // bin 1: 2 cells, acc 0, conf 0.15 -> 2/4 * 0.15 = 0.075
    // bin 8: 1 cell, acc 1, conf 0.85 -> 1/4 * 0.15 = 0.0375
    // bin 9: 1 cell, acc 1, conf 0.95 -> 1/4 * 0.05 = 0.0125
    const cells = [cell(0.15, false), cell(0.15, false), cell(0.85, true), cell(0.95, true)];
    expect(expectedCalibrationError(cells)).toBeCloseTo(0.125, 10);
  });

  it('puts a confidence on a bin edge in the upper bin', () => {
    // 0.05 (bin 0, right): 1/2 * 0.95; 0.1 (bin 1, wrong): 1/2 * 0.1 -> 0.525
    // (were 0.1 in bin 0: acc 0.5, conf 0.075 -> 0.425)
    expect(expectedCalibrationError([cell(0.05, true), cell(0.1, false)])).toBeCloseTo(0.525, 10);
  });

  it('counts a missing confidence (ERROR) as 0 and clamps to [0, 1]', () => {
    expect(expectedCalibrationError([cell(null, false)])).toBe(0);
    expect(expectedCalibrationError([cell(null, true)])).toBe(1);
    expect(expectedCalibrationError([cell(1.7, true), cell(-0.2, false)])).toBe(0);
  });

  it('takes the number of bins', () => {
    // one bin: accuracy 2/3, mean confidence (0.2 + 0.5 + 0.8) / 3 = 0.5
    expect(expectedCalibrationError([cell(0.2, true), cell(0.5, true), cell(0.8, false)], 1)).toBeCloseTo(
      1 / 6,
      10,
    );
    // ten bins: each cell alone: (0.8 + 0.5 + 0.8) / 3 = 0.7
    expect(expectedCalibrationError([cell(0.2, true), cell(0.5, true), cell(0.8, false)])).toBeCloseTo(
      0.7,
      10,
    );
  });
});

describe('summarize and accuracyTable', () => {
  const cells: ScoredCell[] = [
    {
      family: 'inv',
      field: 'total',
      outputType: 'number',
      right: true,
      f1: null,
      confidence: 0.9,
      pageHit: true,
    },
    {
      family: 'inv',
      field: 'total',
      outputType: 'number',
      right: false,
      f1: null,
      confidence: 0.9,
      pageHit: null,
    },
    {
      family: 'nda',
      field: 'party',
      outputType: 'list_scalar',
      right: true,
      f1: 0.5,
      confidence: null,
      pageHit: false,
    },
  ];

  it('summarizes accuracy, F1, ECE and page accuracy', () => {
    const s = summarize(cells);
    expect(s).toMatchObject({ n: 3, right: 2, meanF1: 0.5, pageN: 2, pageAccuracy: 0.5 });
    expect(s.accuracy).toBeCloseTo(2 / 3, 10);
    expect(s.meanConfidence).toBeCloseTo(0.6, 10);
    // bin 9: acc 0.5, conf 0.9 (2/3 of cells); bin 0: acc 1, conf 0 (1/3)
    expect(s.ece).toBeCloseTo((2 / 3) * 0.4 + (1 / 3) * 1, 10);
  });

  it('prints a row per group and an overall row', () => {
    const out = accuracyTable('field', new Map([['inv/total', cells.slice(0, 2)]]), cells).split('\n');
    expect(out).toHaveLength(5);
    expect(out[2]).toMatch(/^inv\/total\s+2\s+1\s+50\.0%/);
    expect(out[4]).toMatch(/^overall\s+3\s+2\s+66\.7%\s+0\.50/);
  });
});

const typed = (
  type: Exclude<AnswerValue, Region[]>['type'],
  value: Exclude<AnswerValue, Region[]>['value'],
) => ({ type, value }) as AnswerValue;
const region = (page: number, box: Box | null): Region => ({ fileId: 'f1', page, box, caption: '' });

describe('scoreGenerated', () => {
  it('text_quote: normalised exact or similarity >= 0.85', () => {
    expect(scoreGenerated('text_quote', 'Acme Corp.', typed('text_quote', 'ACME  CORP'))).toEqual({
      right: true,
      f1: null,
    });
    // 14 characters each, LCS 13: 26/28 = 0.93
    expect(scoreGenerated('text_quote', 'Jonathan Smith', typed('text_quote', 'Jonathon Smith')).right).toBe(
      true,
    );
    expect(scoreGenerated('text_quote', 'Acme Corp', typed('text_quote', 'Globex Ltd')).right).toBe(false);
  });

  it('number: |diff| < 0.01, numeric strings accepted', () => {
    expect(scoreGenerated('number', 1234.5, typed('number', 1234.504)).right).toBe(true);
    expect(scoreGenerated('number', 1234.5, typed('number', 1234.52)).right).toBe(false);
    expect(scoreGenerated('number', 1234.5, typed('number', '1,234.50')).right).toBe(true);
  });

  it('date: the exact ISO string', () => {
    expect(scoreGenerated('date', '2024-03-05', typed('date', '2024-03-05')).right).toBe(true);
    expect(scoreGenerated('date', '2024-03-05', typed('date', '2024-3-5')).right).toBe(false);
  });

  it('boolean and categorical: exact ignoring case', () => {
    expect(scoreGenerated('boolean', true, typed('boolean', true)).right).toBe(true);
    expect(scoreGenerated('boolean', true, typed('boolean', 'TRUE')).right).toBe(true);
    expect(scoreGenerated('boolean', true, typed('boolean', false)).right).toBe(false);
    expect(scoreGenerated('categorical', 'EUR', typed('categorical', 'eur')).right).toBe(true);
    expect(scoreGenerated('categorical', 'EUR', typed('categorical', 'USD')).right).toBe(false);
  });

  it('list_scalar: right only as the exact set (as the corpus rule), F1 reported', () => {
    const gold = ['A Corp', 'B Inc', 'C LLC'];
    // P 1, R 1/3: F1 = 0.5
    const half = scoreGenerated('list_scalar', gold, typed('list_scalar', ['a corp']));
    expect(half.right).toBe(false);
    expect(half.f1).toBeCloseTo(0.5, 10);
    // P 3/4, R 1: F1 = 6/7, one item too many
    const extra = scoreGenerated(
      'list_scalar',
      gold,
      typed('list_scalar', ['A Corp', 'B Inc', 'C LLC', 'Zeta']),
    );
    expect(extra.right).toBe(false);
    expect(extra.f1).toBeCloseTo(6 / 7, 10);
    expect(scoreGenerated('list_scalar', gold, typed('list_scalar', ['C LLC', 'b inc.', 'A Corp']))).toEqual({
      right: true,
      f1: 1,
    });
  });

  it('image: the gold region matched on the same page with IoU >= 0.5', () => {
    const gold = [{ page: 1, box: [0, 0, 0.5, 0.5] as Box, caption: null }];
    // IoU 0.2 / 0.25 = 0.8
    expect(scoreGenerated('image', gold, [region(1, [0, 0, 0.5, 0.4])])).toEqual({ right: true, f1: null });
    expect(scoreGenerated('image', gold, [region(2, [0, 0, 0.5, 0.4])]).right).toBe(false);
    // IoU 0.125 / 0.375 = 1/3
    expect(scoreGenerated('image', gold, [region(1, [0.25, 0, 0.75, 0.5])]).right).toBe(false);
    expect(scoreGenerated('image', gold, [region(1, null)]).right).toBe(false);
    expect(scoreGenerated('image', gold, typed('text_quote', 'a picture')).right).toBe(false);
  });

  it('image_list: every gold region matched, F1 over regions', () => {
    const gold = [
      { page: 1, box: [0, 0, 0.5, 0.5] as Box, caption: 'Fig. 1' },
      { page: 2, box: [0.5, 0.5, 1, 1] as Box, caption: null },
    ];
    const both = scoreGenerated('image_list', gold, [
      region(2, [0.5, 0.5, 1, 1]),
      region(1, [0, 0, 0.5, 0.5]),
      region(1, [0.6, 0.6, 0.9, 0.9]),
    ]);
    // 2 matched of 2 gold, 3 answered: F1 = 4/5
    expect(both.right).toBe(true);
    expect(both.f1).toBeCloseTo(0.8, 10);
    // 1 matched of 2 gold, 1 answered: F1 = 2/3
    const one = scoreGenerated('image_list', gold, [region(1, [0, 0, 0.5, 0.5])]);
    expect(one.right).toBe(false);
    expect(one.f1).toBeCloseTo(2 / 3, 10);
    // one answered region can match only one gold region
    const same = [region(1, [0, 0, 0.5, 0.5])];
    expect(scoreGenerated('image_list', [gold[0]!, gold[0]!], same).right).toBe(false);
  });

  it('null gold: right only for a null or empty answer', () => {
    expect(scoreGenerated('text_quote', null, null)).toEqual({ right: true, f1: null });
    expect(scoreGenerated('number', null, typed('number', null)).right).toBe(true);
    expect(scoreGenerated('text_quote', null, typed('text_quote', '  ')).right).toBe(true);
    expect(scoreGenerated('text_quote', null, typed('text_quote', 'Acme')).right).toBe(false);
    expect(scoreGenerated('list_scalar', null, typed('list_scalar', []))).toEqual({ right: true, f1: 1 });
    expect(scoreGenerated('list_scalar', [], typed('list_scalar', ['x']))).toEqual({ right: false, f1: 0 });
    expect(scoreGenerated('image_list', null, [])).toEqual({ right: true, f1: 1 });
    expect(scoreGenerated('image', null, [region(1, [0, 0, 1, 1])]).right).toBe(false);
  });

  it('a gold value with no answer is wrong', () => {
    expect(scoreGenerated('date', '2024-03-05', null)).toEqual({ right: false, f1: null });
    expect(scoreGenerated('list_scalar', ['A'], null)).toEqual({ right: false, f1: 0 });
  });
});

describe('boxIoU', () => {
  it('is 1 for the same box, 0 for disjoint or empty ones', () => {
    expect(boxIoU([0.1, 0.1, 0.4, 0.4], [0.1, 0.1, 0.4, 0.4])).toBeCloseTo(1, 10);
    expect(boxIoU([0, 0, 0.2, 0.2], [0.5, 0.5, 1, 1])).toBe(0);
    expect(boxIoU([0, 0, 0, 0], [0, 0, 0, 0])).toBe(0);
    // overlap 0.25 x 0.5 = 0.125; union 0.25 + 0.25 - 0.125
    expect(boxIoU([0, 0, 0.5, 0.5], [0.25, 0, 0.75, 0.5])).toBeCloseTo(1 / 3, 10);
  });
});

describe('corpus scoring: text fuzzy "or contains the label"', () => {
  const spec: FieldSpec = {
    dataset: 'invoice2data',
    field: 'issuer',
    outputType: 'text_quote',
    prompt: 'Which company issued this invoice?',
    config: null,
    match: 'fuzzy token similarity >= 0.85 ... so an answer that contains the label should also count',
  };
  const answer = (value: string): EngineAnswer => ({
    status: 'SUCCESS',
    value: { type: 'text_quote', value },
    citations: [],
    confidence: 0.5,
    facts: [],
  });

  it('accepts an answer holding the label as whole words', () => {
    expect(ruleFor(spec)).toBe('text-contains');
    expect(scoreValue(spec, 'Free', answer('Free SAS')).right).toBe(true);
    expect(scoreValue(spec, 'Free', answer('Freebox SAS')).right).toBe(false);
    expect(ruleFor({ ...spec, match: 'fuzzy token similarity >= 0.85' })).toBe('text-fuzzy');
    expect(scoreValue({ ...spec, match: 'fuzzy' }, 'Free', answer('Free SAS')).right).toBe(false);
  });
});

describe('checkTargets', () => {
  it('judges accuracy by set, ECE and citation pages', () => {
    const dev = checkTargets('dev', { accuracy: 0.86, ece: 0.11, pageAccuracy: 0.95 });
    expect(dev.map((c) => [c.what, c.met])).toEqual([
      ['accuracy', true],
      ['ECE', false],
      ['citation page accuracy', true],
    ]);
    expect(
      checkTargets('invoices', { accuracy: 0.8, ece: 0.1, pageAccuracy: null }).map((c) => c.met),
    ).toEqual([true, true, false]);
    expect(checkTargets('holdout', { accuracy: 0.1, ece: 0, pageAccuracy: 1 }).map((c) => c.what)).toEqual([
      'ECE',
      'citation page accuracy',
    ]);
  });
});
