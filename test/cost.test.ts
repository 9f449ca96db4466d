import { describe, expect, it } from 'vitest';
import { bundleSurcharge, cellPrice } from '../src/domain/cost.ts';

describe('cost rules (interface.md 8, decisions.md D3)', () => {
  it('8.1: a single-file row costs exactly its creditRate, at every rate', () => {
    for (const rate of [4, 5, 17, 40]) {
      expect(cellPrice({ creditRate: rate, isCompositional: false }, null)).toBe(rate);
      expect(cellPrice({ creditRate: rate, isCompositional: true }, null)).toBe(rate);
    }
  });

  it('8.2 / D3: non-compositional bundles add 4 per member beyond the third (5 members at rate 4 cost 12)', () => {
    const expected: [number, number][] = [
      [1, 0],
      [2, 0],
      [3, 0],
      [4, 4],
      [5, 8],
      [6, 12],
      [12, 36],
      [15, 48],
    ];
    for (const [members, surcharge] of expected) {
      expect(bundleSurcharge(false, members)).toBe(surcharge);
      expect(cellPrice({ creditRate: 4, isCompositional: false }, members)).toBe(4 + surcharge);
    }
    expect(cellPrice({ creditRate: 4, isCompositional: false }, 5)).toBe(12);
  });

  it('8.3 / D3: compositional bundles add 4 per six members (5: 0; 6: 4; 12: 8)', () => {
    const expected: [number, number][] = [
      [1, 0],
      [2, 0],
      [5, 0],
      [6, 4],
      [11, 4],
      [12, 8],
      [15, 8],
    ];
    for (const [members, surcharge] of expected) {
      expect(bundleSurcharge(true, members)).toBe(surcharge);
      expect(cellPrice({ creditRate: 10, isCompositional: true }, members)).toBe(10 + surcharge);
    }
  });

  it('8.4: the surcharge does not depend on the rate', () => {
    for (const rate of [4, 40]) {
      expect(cellPrice({ creditRate: rate, isCompositional: false }, 6) - rate).toBe(12);
      expect(cellPrice({ creditRate: rate, isCompositional: true }, 6) - rate).toBe(4);
    }
  });
});
