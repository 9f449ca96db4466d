import type { DocIndex } from './doc-index.ts';
import type { TypedCandidate } from './typed-candidates.ts';

/** A bullet or a counter opening a list entry: "•", "-", "a)", "(ii)", "3.". */
export const MARKER = String.raw`[•●▪◦‣\-–*·]|\(?[a-z]\)|\(?[ivx]{1,4}\)|\d{1,2}[.)]`;
export const MARKER_WORD = new RegExp(`^(?:${MARKER})$`, 'i');

/** Whether the word before a candidate is a marker that opens its line ("- Launch …", "b) Iwasaki"). */
export function opensLineMarked(index: DocIndex, c: TypedCandidate): boolean {
  const at = c.at;
  if (at.from === 0) return false;
  const words = index.doc.pages[at.page]!.words;
  const marker = words[at.unit.words[at.from - 1]!]!;
  if (!MARKER_WORD.test(marker.text)) return false;
  // The word before the marker, if any, sits on a line above.
  const prior = at.from >= 2 ? words[at.unit.words[at.from - 2]!]! : null;
  return !prior || prior.box[3] <= (marker.box[1] + marker.box[3]) / 2;
}
