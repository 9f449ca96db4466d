import type { DocIndex } from './doc-index.ts';
import type { Located } from './retrieval.ts';

/**
 * The words a reader takes for a value's label, found by geometry alone: the words left of it
 * on its printed line, and the text of the nearest line above that overlaps it horizontally
 * (a form box's caption, a table's column header). Works whatever unit the value was read from.
 */
export interface Nearby {
  left: string;
  above: string;
  /** Distance to that line above, in line heights (0 when none). */
  aboveGap: number;
  /**
   * The heading of the block the value's line belongs to: going up through lines that start at
   * the same left edge (bullets, table rows), the first line that does not ("Deliverables:").
   */
  heading: string;
}

/** Line index of every word of a page, per document (memoised). */
function lineOfWord(index: DocIndex, page: number): Int32Array {
  const key = `line-of-word:${page}`;
  const hit = index.memo.get(key) as Int32Array | undefined;
  if (hit) return hit;
  const out = new Int32Array(index.doc.pages[page]!.words.length).fill(-1);
  index.layouts[page]!.lines.forEach((line, li) => {
    for (const w of line.words) out[w] = li;
  });
  index.memo.set(key, out);
  return out;
}

export function nearbyOf(index: DocIndex, at: Located): Nearby {
  const key = `nearby:${at.unit.id}:${at.from}`;
  const hit = index.memo.get(key) as Nearby | undefined;
  if (hit) return hit;
  const page = index.doc.pages[at.page]!;
  const layout = index.layouts[at.page]!;
  const first = at.unit.words[at.from]!;
  const last = at.unit.words[at.to]!;
  const li = lineOfWord(index, at.page)[first]!;
  let left = '';
  let above = '';
  let aboveGap = 0;
  let heading = '';
  if (li >= 0) {
    const line = layout.lines[li]!;
    const k = line.words.indexOf(first);
    left = line.words
      .slice(Math.max(0, k - 5), Math.max(0, k))
      .map((w) => page.words[w]!.text)
      .join(' ');
    const x0 = page.words[first]!.box[0];
    const x1 = Math.max(page.words[first]!.box[2], page.words[last]!.box[2]);
    const H = page.height || 792;
    // Far enough for a form box whose caption sits above a signature or a blank.
    for (let l = li - 1; l >= 0 && l >= li - 8; l--) {
      const up = layout.lines[l]!;
      const gap = ((line.box[1] - up.box[3]) * H) / line.height;
      if (gap > 12) break;
      const seg = up.segments.find((s) => Math.min(s.box[2], x1) - Math.max(s.box[0], x0) > 0);
      if (seg) {
        above = seg.text;
        aboveGap = Math.max(0, gap);
        break;
      }
    }
  }
  if (li > 0) {
    const line = layout.lines[li]!;
    const H = page.height || 792;
    const W = page.width || 612;
    const x = page.words[line.words[0]!]!.box[0];
    let prev = line;
    for (let l = li - 1; l >= 0 && l >= li - 40; l--) {
      const up = layout.lines[l]!;
      if ((prev.box[1] - up.box[3]) * H > 2.5 * line.height) break;
      const ux = page.words[up.words[0]!]!.box[0];
      if (Math.abs(ux - x) * W > line.height) {
        heading = up.segments.find((s) => s.box[2] > x)?.text ?? up.segments[0]!.text;
        break;
      }
      prev = up;
    }
  }
  const out = { left, above, aboveGap, heading };
  index.memo.set(key, out);
  return out;
}
