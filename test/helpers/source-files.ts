import { readdirSync } from 'node:fs';
import path from 'node:path';

/** TypeScript sources below a folder (declaration files left out), as absolute paths in a stable order. */
export function sourceFilesUnder(dir: string): string[] {
  return readdirSync(dir, { recursive: true, encoding: 'utf8' })
    .filter((f) => /\.(?:c|m)?tsx?$/.test(f) && !f.endsWith('.d.ts'))
    .map((f) => path.join(dir, f))
    .sort();
}

/**
 * The file's code only: comments, and the text of strings, template literals and regular
 * expressions, become spaces (newlines kept, so line numbers hold). Code inside a template's
 * `${...}` stays code.
 */
export function codeOnly(text: string): string {
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
