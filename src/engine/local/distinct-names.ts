import { isOrgSuffix } from './typed-candidates.ts';

/** A value's words without punctuation, as written ("JDA Software Group, Inc." → JDA Software Group Inc). */
const wordsOf = (value: string) => value.split(/[^\p{L}\p{N}&]+/u).filter(Boolean);
const isLegalForm = (w: string) => w !== '&' && isOrgSuffix(w);
const same = (a: string, b: string) => a.localeCompare(b, undefined, { sensitivity: 'base' }) === 0;

/** Where `part` occurs in `whole` as a run of words, or -1. */
function indexOfRun(whole: string[], part: string[]): number {
  for (let i = 0; i + part.length <= whole.length; i++) {
    if (part.every((w, k) => same(w, whole[i + k]!))) return i;
  }
  return -1;
}

/**
 * The entries of a list as distinct things. A company named twice, once with its legal form
 * ("JDA Software Group" and "JDA Software Group, Inc."), is one entry, the full name; a legal
 * form alone ("Inc.") is a fragment of one; and an entry that runs a company's full name on
 * into more names ("CafePress Inc. District Photo, Inc.") is two entries read as one.
 * Entries keep their order; a merged entry takes the place of the first of its names.
 */
export function distinctNames<T>(items: T[], textOf: (item: T) => string): T[] {
  const words = items.map((i) => wordsOf(textOf(i)));
  const drop = new Set<number>();
  const replaceBy = new Map<number, number>();
  words.forEach((w, i) => {
    if (items.length > 1 && w.length > 0 && w.every(isLegalForm)) drop.add(i);
  });
  for (let i = 0; i < items.length; i++) {
    for (let j = 0; j < items.length; j++) {
      if (i === j || drop.has(i) || drop.has(j)) continue;
      const [a, b] = [words[i]!, words[j]!];
      if (a.length === 0 || b.length <= a.length) continue;
      const at = indexOfRun(b, a);
      if (at < 0) continue;
      const rest = [...b.slice(0, at), ...b.slice(at + a.length)];
      if (at === 0 && rest.every(isLegalForm)) {
        // The same company, once without its legal form: keep the full name in the first's place.
        if (i < j) replaceBy.set(i, j);
        drop.add(Math.max(i, j));
      } else if (a.length >= 2 && isLegalForm(a.at(-1)!) && isLegalForm(b.at(-1)!)) {
        drop.add(j);
      }
    }
  }
  return items.flatMap((_, i) => (drop.has(i) ? [] : [items[replaceBy.get(i) ?? i]!]));
}
