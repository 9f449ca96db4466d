import { STOPWORDS } from '../text/tokenize.ts';
import type { Candidate } from './candidates.ts';
import type { DocIndex, Passage } from './doc-index.ts';
import { lineOfWord } from './nearby.ts';
import type { Query } from './query.ts';
import { labelScore } from './retrieval.ts';

const MAX_LABEL_WORDS = 5;
/** How well unmarked leading words must match the question to be read as its caption. */
const CAPTION_SCORE = 0.6;
/** An entry written after its caption on one line is short: a longer rest is prose. */
const MAX_CAPTIONED_WORDS = 10;

/**
 * Values that follow a label: the rest of a unit after a label prefix ("Seller: X",
 * "Invoice # 123"), or a whole form/table cell (its label is left of it or above it).
 */
export function valueCandidates(index: DocIndex, query: Query): Candidate<string>[] {
  const out: Candidate<string>[] = [];
  const pages = index.doc.pages;
  for (const unit of index.units) {
    const words = unit.words.map((w) => pages[unit.page]!.words[w]!.text);
    if (unit.kind === 'segment') out.push(candidate(unit, 0, words.length - 1, words));
    for (let k = 1; k <= Math.min(MAX_LABEL_WORDS, words.length - 1); k++) {
      const prefix = words.slice(0, k).join(' ');
      // A label inside a cell ends with ":" or "#", or is followed by a number ("Invoice 123").
      // Words holding a figure, or past a label's colon, are a value already: "17 July" and
      // "Invoice date: 17 July" are no labels of the "2023" that ends the date.
      const delimited =
        /[:#]$/.test(prefix) ||
        (/\d/.test(words[k]!) && !/\d/.test(prefix) && !words.slice(0, k - 1).some((w) => /:$/.test(w)));
      if (delimited && (labelScore(prefix, query) > 0.3 || k <= 3)) {
        out.push(candidate(unit, k, words.length - 1, words));
      }
    }
    out.push(...captionedValues(index, unit, words, query));
  }
  return out;
}

/**
 * Forms print a caption and its entry with no mark between ("Purpose of request Backup drives
 * for the archive"): at the start of any line of a unit, words saying what is asked followed by
 * a capital or a figure caption the rest of that line.
 */
function captionedValues(index: DocIndex, unit: Passage, words: string[], query: Query): Candidate<string>[] {
  const out: Candidate<string>[] = [];
  const lineOf = lineOfWord(index, unit.page);
  // A caption opens and ends with words of its own ("Purpose of request"), where a line of prose
  // opens with "The" or ends with "of the" before a name ("The laws of the State of Nevada").
  const word = (i: number) => words[i]!.toLowerCase().replace(/[^\p{L}]/gu, '');
  let start = 0;
  for (let j = 1; j <= words.length; j++) {
    if (j < words.length && lineOf[unit.words[j]!] === lineOf[unit.words[j - 1]!]) continue;
    const end = j - 1;
    for (let k = 1; k <= Math.min(MAX_LABEL_WORDS, end - start); k++) {
      const prefix = words.slice(start, start + k).join(' ');
      if (/[:#]$/.test(prefix) || !/^[\p{Lu}\d]/u.test(words[start + k]!)) continue;
      if (STOPWORDS.has(word(start)) || STOPWORDS.has(word(start + k - 1))) continue;
      if (end - (start + k) + 1 > MAX_CAPTIONED_WORDS) continue;
      // A colon further on ends the caption there ("Reference No.: F-219868"): read as delimited.
      if (words.slice(start + k, end + 1).some((w) => /:$/.test(w))) continue;
      if (labelScore(prefix, query) >= CAPTION_SCORE) out.push(candidate(unit, start + k, end, words));
    }
    start = j;
  }
  return out;
}

function candidate(unit: Passage, from: number, to: number, words: string[]): Candidate<string> {
  return {
    at: { page: unit.page, unit, from, to },
    value: words.slice(from, to + 1).join(' '),
    text: words.slice(from, to + 1).join(' '),
  };
}
