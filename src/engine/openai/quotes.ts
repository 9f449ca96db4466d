import { locateQuote } from '../citations.ts';
import type { Citation, EnginePage } from '../types.ts';
import type { LabelledDocument } from './context.ts';
import type { RawQuote } from './parse.ts';

/** Citations kept per answer. */
const MAX_CITATIONS = 8;
/**
 * A quote found on a page other than the one the model named is kept only if it is this
 * long (letters and digits), so that it is evidence wherever it occurs.
 */
const MIN_RELOCATED_CHARS = 12;

/**
 * Looks every quote up in the stored page words: on the page the model named first, then,
 * for a quote specific enough, anywhere in the documents of the call (models misnumber
 * pages). Quotes the pages do not hold are dropped; citations carry the words' box.
 */
export function verifyQuotes(
  quotes: readonly RawQuote[],
  docs: readonly LabelledDocument[],
): { citations: Citation[]; dropped: number } {
  const citations: Citation[] = [];
  const seen = new Set<string>();
  let dropped = 0;
  for (const q of quotes) {
    if (!q.quote.trim()) continue;
    const c = locate(q, docs);
    if (!c) {
      dropped++;
      continue;
    }
    const key = `${c.fileId}\n${c.page}\n${c.quote}`;
    if (!seen.has(key) && citations.length < MAX_CITATIONS) {
      seen.add(key);
      citations.push(c);
    }
  }
  return { citations, dropped };
}

function locate(q: RawQuote, docs: readonly LabelledDocument[]): Citation | null {
  const label = q.document?.trim().toLowerCase();
  const named = label ? docs.find((d) => d.label.toLowerCase() === label) : undefined;
  const order = named ? [named, ...docs.filter((d) => d !== named)] : [...docs];
  const tried = new Set<EnginePage>();
  if (q.page !== null) {
    for (const d of named ? [named] : order) {
      const page = d.doc.pages.find((p) => p.page === q.page);
      if (!page) continue;
      tried.add(page);
      const c = locateQuote(d.doc.fileId, page, q.quote);
      if (c) return c;
    }
  }
  if (q.quote.replace(/[^\p{L}\p{N}]+/gu, '').length < MIN_RELOCATED_CHARS) return null;
  for (const d of order) {
    for (const page of d.doc.pages) {
      if (tried.has(page)) continue;
      const c = locateQuote(d.doc.fileId, page, q.quote);
      if (c) return c;
    }
  }
  return null;
}
