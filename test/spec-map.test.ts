/**
 * Issue 14: docs/spec-map.md (which code cites and which tests check each section of
 * interface.md and decisions.md) is generated; this fails when the checked-in map is stale.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { buildSpecMap, citationsIn } from '../scripts/spec-map.ts';

describe('spec map (issue 14)', () => {
  it('reads the citation forms the codebase uses, and nothing else', () => {
    const known = new Set(['2.4', '4.3', '7', 'D4', 'D5']);
    const ids = citationsIn(
      "it('2.4 / D5: cited') // interface.md 4.3 rule 7; see section 7; version 0.85, 2.45 s, D44",
      known,
    );
    expect([...ids].sort()).toEqual(['2.4', '4.3', '7', 'D5']);
  });

  it('docs/spec-map.md is current: run `npm run spec-map` after adding a test or a citation', () => {
    const checkedIn = readFileSync(new URL('../docs/spec-map.md', import.meta.url), 'utf8');
    expect(checkedIn).toBe(buildSpecMap());
  });
});
