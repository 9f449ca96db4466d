/**
 * Issue 14: "The clock is injected everywhere: no `Date.now()` outside `infra/clock`." Every
 * rule that depends on time (expiry, leases, holds, the month a spend counts against) reads
 * an injected `Clock` or a `now` taken from one, so a test can move time for the API and the
 * worker alike. `src/infra/clock.ts` is the one file that reads the system time.
 *
 * The check reads each file's code with comments, strings and regular expressions blanked,
 * so text that mentions `Date.now` never counts, and `Date.now` passed as a function (not
 * called) does. `new Date()` without an
 * argument reads the system time too and is held to the same rule. `performance.now()` is a
 * monotonic timer for measuring durations, not a clock a rule reads, and stays allowed.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { codeOnly, sourceFilesUnder as sourceFiles } from './helpers/source-files.ts';

const SRC = path.resolve(import.meta.dirname, '../src');
const CLOCK = 'infra/clock.ts';

/**
 * Reads of the system time in blanked code: `Date.now` called or passed as a value, and
 * `new Date()` without an argument. `Date[...]` is checked against the original text, since
 * the string inside the brackets is blanked.
 */
const SYSTEM_TIME = /\bDate\s*(?:\.\s*now\b|\[\s*['"`][^\]\n]*\])|\bnew\s+Date\s*\(\s*\)/g;

/** `file:line: code` for each read of the system time in the file's code. */
function systemTimeReads(name: string, text: string): string[] {
  const code = codeOnly(text);
  const found: string[] = [];
  for (const m of code.matchAll(SYSTEM_TIME)) {
    const original = text.slice(m.index, m.index + m[0].length);
    if (original.includes('[') && !/\[\s*(['"`])now\1\s*\]$/.test(original)) continue;
    const line = code.slice(0, m.index).split('\n').length;
    found.push(`${name}:${line}: ${original}`);
  }
  return found;
}

const files = sourceFiles(SRC).map((file) => ({
  file: path.relative(SRC, file).split(path.sep).join('/'),
  text: readFileSync(file, 'utf8'),
}));

describe('clock layering (issue 14)', () => {
  it('finds what it forbids: Date.now in code, as a call or a value, and new Date(); not in comments or strings', () => {
    const sample = [
      '// Date.now() in a comment',
      "const s = 'Date.now()';",
      'const a = Date.now();',
      'const f = Date.now;',
      "const g = Date['now'];",
      'const d = new Date();',
      'const e = new Date(0);',
      'const p = performance.now();',
      '/* Date.now() */ const r = /Date.now()["]/.test(s) ? 1 : 2 / 3;',
      // biome-ignore lint/suspicious/noTemplateCurlyInString: the source text of a template literal, on purpose
      'const t = `Date.now() ${x ? { a: Date.now() } : "Date.now()"} Date.now()`;',
      'function q() { return /["]/.test(Date.now) }',
    ].join('\n');
    expect(systemTimeReads('sample.ts', sample)).toEqual([
      'sample.ts:3: Date.now',
      'sample.ts:4: Date.now',
      "sample.ts:5: Date['now']",
      'sample.ts:6: new Date()',
      'sample.ts:10: Date.now',
      'sample.ts:11: Date.now',
    ]);
  });

  it('src/infra/clock.ts is the one reader of the system time, and it does read it', () => {
    expect(files.length).toBeGreaterThan(100);
    const clock = files.find((f) => f.file === CLOCK);
    expect(clock, 'src/infra/clock.ts exists').toBeDefined();
    expect(systemTimeReads(CLOCK, clock!.text).length).toBeGreaterThan(0);
  });

  it('no file under src/ other than src/infra/clock.ts reads Date.now (take a Clock or a `now`)', () => {
    const offenders = files.filter((f) => f.file !== CLOCK).flatMap((f) => systemTimeReads(f.file, f.text));
    expect(offenders).toEqual([]);
  });
});
