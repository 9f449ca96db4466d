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
import { sourceFilesUnder as sourceFiles } from './helpers/source-files.ts';

const SRC = path.resolve(import.meta.dirname, '../src');
const CLOCK = 'infra/clock.ts';

/**
 * The file's code only: comments, and the text of strings, template literals and regular
 * expressions, become spaces (newlines kept, so line numbers hold). Code inside a template's
 * `${...}` stays code.
 */
function codeOnly(text: string): string {
  const out = text.split('');
  const blank = (from: number, to: number) => {
    for (let k = from; k < to; k++) if (out[k] !== '\n') out[k] = ' ';
  };
  /** Brace depth of the code inside each open template `${`. */
  const templates: number[] = [];
  let i = 0;
  let prev = ''; // the last significant code character, to tell a regex from a division
  let word = ''; // the last word of code: after `return` or `typeof` a slash starts a regex
  const skipTemplateText = () => {
    const from = i;
    while (i < text.length && text[i] !== '`' && !(text[i] === '$' && text[i + 1] === '{')) {
      i += text[i] === '\\' ? 2 : 1;
    }
    blank(from, i);
    if (text[i] === '`') i++;
    else if (i < text.length) {
      templates.push(0);
      i += 2;
    }
    prev = '{';
  };
  while (i < text.length) {
    const c = text[i]!;
    const next = text[i + 1];
    if (c === '/' && next === '/') {
      const from = i;
      while (i < text.length && text[i] !== '\n') i++;
      blank(from, i);
    } else if (c === '/' && next === '*') {
      const end = text.indexOf('*/', i + 2);
      const to = end < 0 ? text.length : end + 2;
      blank(i, to);
      i = to;
    } else if (c === "'" || c === '"') {
      const from = i++;
      while (i < text.length && text[i] !== c && text[i] !== '\n') i += text[i] === '\\' ? 2 : 1;
      blank(from + 1, i);
      i++;
      prev = c;
    } else if (c === '`') {
      i++;
      skipTemplateText();
    } else if (c === '}' && templates.length > 0 && templates.at(-1) === 0) {
      templates.pop();
      i++;
      skipTemplateText();
    } else if (
      c === '/' &&
      (prev === '' || '(,=:[!&|?{};+-*%<>~^'.includes(prev) || REGEX_AFTER.test(word))
    ) {
      const from = i++;
      let inClass = false;
      while (i < text.length && text[i] !== '\n' && (inClass || text[i] !== '/')) {
        if (text[i] === '[') inClass = true;
        else if (text[i] === ']') inClass = false;
        i += text[i] === '\\' ? 2 : 1;
      }
      blank(from + 1, i);
      i++;
      prev = ')';
    } else {
      if (templates.length > 0 && c === '{') templates[templates.length - 1]!++;
      if (templates.length > 0 && c === '}') templates[templates.length - 1]!--;
      if (/[\w$]/.test(c)) word = prev === 'a' ? word + c : c;
      if (!/\s/.test(c)) prev = /[\w$]/.test(c) ? 'a' : c;
      i++;
    }
  }
  return out.join('');
}

const REGEX_AFTER = /^(?:return|typeof|case|do|else|in|of|void|yield|await|throw|delete|new)$/;

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
