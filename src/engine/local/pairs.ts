import type { Candidate } from './candidates.ts';
import type { DocIndex, Passage } from './doc-index.ts';
import type { Query } from './query.ts';
import { labelScore } from './retrieval.ts';

const MAX_LABEL_WORDS = 5;

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
