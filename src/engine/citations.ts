import { unionBox } from './text/layout.ts';
import type { Box, Citation, EnginePage } from './types.ts';

/**
 * Citations are built from stored words only, so the quote is always verbatim page text
 * (words in stored order, joined by single spaces, which is the page text with its
 * whitespace collapsed) and the box is the union of exactly the quoted words.
 */
export function citeWords(fileId: string, page: EnginePage, indices: readonly number[]): Citation | null {
  const run = quotableRun(indices);
  if (!run) return null;
  const words: number[] = [];
  for (let i = run[0]; i <= run[1]; i++) words.push(i);
  return {
    fileId,
    page: page.page,
    quote: words.map((i) => page.words[i]!.text).join(' '),
    box: roundBox(unionBox(page, words)),
  };
}

/**
 * Words of one answer are usually consecutive in stored order; when the page's reading
 * order interleaves them with others (columns, form fields), quote the shortest stretch
 * covering them if it stays short, else the longest consecutive run.
 */
function quotableRun(indices: readonly number[]): [number, number] | null {
  if (indices.length === 0) return null;
  const sorted = [...new Set(indices)].sort((a, b) => a - b);
  const first = sorted[0]!;
  const last = sorted[sorted.length - 1]!;
  if (last - first + 1 <= sorted.length * 2 + 4) return [first, last];
  let best: [number, number] = [first, first];
  let start = first;
  for (let k = 1; k <= sorted.length; k++) {
    if (k === sorted.length || sorted[k] !== sorted[k - 1]! + 1) {
      const end = sorted[k - 1]!;
      if (end - start > best[1] - best[0]) best = [start, end];
      if (k < sorted.length) start = sorted[k]!;
    }
  }
  return best;
}

export function roundBox(b: Box): Box {
  return b.map((v) => Math.round(Math.min(1, Math.max(0, v)) * 10_000) / 10_000) as Box;
}

const norm = (s: string) => s.toLowerCase().replace(/[^\p{L}\p{N}]+/gu, '');

/**
 * Finds a quote proposed by someone else (a model) among the page's words, ignoring case,
 * spacing and punctuation, and returns it as a citation built from the stored words; null
 * when the page does not contain it.
 */
export function locateQuote(fileId: string, page: EnginePage, quote: string): Citation | null {
  const target = norm(quote);
  if (!target) return null;
  const words = page.words.map((w) => norm(w.text));
  for (let start = 0; start < words.length; start++) {
    if (
      !words[start] ||
      !target.startsWith(words[start]!.slice(0, Math.min(words[start]!.length, target.length)))
    ) {
      continue;
    }
    let acc = '';
    for (let end = start; end < words.length; end++) {
      acc += words[end];
      if (acc === target) {
        const idx: number[] = [];
        for (let i = start; i <= end; i++) idx.push(i);
        return citeWords(fileId, page, idx);
      }
      if (acc.length >= target.length || !target.startsWith(acc)) {
        // A quote may start or end inside a word (a model trims punctuation or a suffix).
        if (acc.includes(target)) return citeWords(fileId, page, rangeOf(start, end));
        break;
      }
    }
  }
  return null;
}

function rangeOf(a: number, b: number): number[] {
  const out: number[] = [];
  for (let i = a; i <= b; i++) out.push(i);
  return out;
}
