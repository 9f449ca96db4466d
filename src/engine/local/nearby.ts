import type { Line } from '../text/layout.ts';
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
   * The heading of the block the value belongs to: going up its column through lines that start
   * at the same left edge (bullets, table rows, address lines), the first that does not, or
   * that ends in a colon ("Deliverables:", "Billed to:").
   */
  heading: string;
  /**
   * The first line of the value's block when no heading ends the walk up: a caption printed
   * without a colon over an address ("Bill to" / name / company), the block's own title.
   */
  blockTop: string;
  /**
   * For a number in a table: the header of its column (going up through the numbers above it
   * to the first cell that is not one) and the label starting its row. A table cell is named by
   * the two together.
   */
  columnHead: string;
  rowHead: string;
  /**
   * The heading of the section the value is printed in: the nearest line above it on its page
   * that reads as a heading ("RECOMMENDATIONS", "4. Governing Law", a title in a larger size),
   * however many paragraphs or bullets lie between.
   */
  section: string;
}

/** A table cell holding an amount rather than a caption ("1,234.50", "(12%)", "EUR 90"). */
const valueLike = (text: string) => /^[\s\d.,:%()$€£¥+\-–/*]+$/.test(text.replace(/\b[A-Z]{3}\b/g, ''));

/** A table row with figures: cells side by side, one of them an amount. */
const figureRow = (line: Line) => line.segments.length > 1 && line.segments.some((g) => valueLike(g.text));

/** A horizontal gap, as a share of the page width, that separates columns rather than a label from its value. */
const WIDE_GAP = 0.3;

/** Line index of every word of a page, per document (memoised). */
export function lineOfWord(index: DocIndex, page: number): Int32Array {
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

/** How a caption ends before its value: a colon, a number sign, or "No." / "Nr." / "Nº" ("Rechnungsnr." too). */
const CAPTION_END = /(?:[:#]|\b(?:no|nr|nro|num|núm|n[°º])\.?|\p{Ll}nr\.?)$/iu;

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
  let blockTop = '';
  let columnHead = '';
  let rowHead = '';
  if (li >= 0) {
    const line = layout.lines[li]!;
    const k = line.words.indexOf(first);
    // Up to five words back. Words across a wide gap belong to the next column over (the other
    // party's block in a two-column header), except for an amount at the right of a row
    // ("VAT 10%  ....  3.15"), whose label is at the row's left edge however far.
    const amount = /\d/.test(page.words[first]!.text);
    const taken: string[] = [];
    let edge = page.words[first]!.box[0];
    for (let j = k - 1; j >= 0 && taken.length < 5; j--) {
      const w = page.words[line.words[j]!]!;
      if (!amount && edge - w.box[2] > WIDE_GAP) break;
      taken.unshift(w.text);
      edge = w.box[0];
    }
    left = taken.join(' ');
    const x0 = page.words[first]!.box[0];
    const x1 = Math.max(page.words[first]!.box[2], page.words[last]!.box[2]);
    const H = page.height || 792;
    // Far enough for a form box whose caption sits above a signature or a blank. A value
    // captioned on its own line ("Order number: 93550438", "Rechnungsnr. 30064443") takes no
    // caption from above.
    const captionedLeft = CAPTION_END.test(left);
    for (let l = li - 1; l >= 0 && l >= li - 8 && !captionedLeft; l--) {
      const up = layout.lines[l]!;
      const gap = ((line.box[1] - up.box[3]) * H) / line.height;
      if (gap > 12) break;
      const seg = up.segments.find((s) => Math.min(s.box[2], x1) - Math.max(s.box[0], x0) > 0);
      if (seg) {
        // A caption and its own value ("Order number: 93550438") captions nothing below it.
        if (!/\p{L}:\s+\S/u.test(seg.text)) {
          above = seg.text;
          aboveGap = Math.max(0, gap);
        }
        break;
      }
    }
    if (amount) {
      columnHead = columnHeadOf(layout.lines, li, x0, x1, H);
      const start = line.segments[0];
      if (start && !start.words.includes(first) && /\p{L}{2}/u.test(start.text)) rowHead = start.text;
    }
  }
  if (li > 0) {
    const line = layout.lines[li]!;
    const H = page.height || 792;
    const W = page.width || 612;
    // The value's own column: the segment holding it, so a block in the right half of a
    // two-column header finds its heading above it, not the left block's.
    const own = line.segments.find((s) => s.words.includes(first)) ?? line.segments[0]!;
    const x = own.box[0];
    const x1 = own.box[2];
    let prevTop = line.box[1];
    const inFigureRow = figureRow(line);
    for (let l = li - 1; l >= 0 && l >= li - 40; l--) {
      const up = layout.lines[l]!;
      const seg = up.segments.find((s) => Math.min(s.box[2], x1) - Math.max(s.box[0], x) > 0);
      if (!seg) {
        // Nothing above in this column on that line: a blank in the block, unless too far.
        if ((prevTop - up.box[3]) * H > 3.5 * line.height) break;
        continue;
      }
      if ((prevTop - seg.box[3]) * H > 3.5 * line.height) break;
      // A line starting elsewhere, or a caption ending in a colon, heads the block; so does a
      // table's caption row over its rows of figures ("Taxes & deductions | This period").
      if (
        Math.abs(seg.box[0] - x) * W > line.height ||
        /[:]$/.test(seg.text.trim()) ||
        (inFigureRow && !figureRow(up) && !valueLike(seg.text))
      ) {
        heading = seg.text;
        break;
      }
      blockTop = seg.text;
      prevTop = seg.box[1];
    }
    if (heading) blockTop = '';
  }
  const section = li >= 0 ? (sectionsOf(index, at.page)[li] ?? '') : '';
  const out = { left, above, aboveGap, heading, blockTop, columnHead, rowHead, section };
  index.memo.set(key, out);
  return out;
}

/**
 * The header of the table column spanning x0..x1 over line li: going up through the amounts
 * above to the first cell that is not one; a column of amounts alone is headed by its top cell.
 */
function columnHeadOf(lines: readonly Line[], li: number, x0: number, x1: number, H: number): string {
  const line = lines[li]!;
  let head = '';
  let prevTop = line.box[1];
  for (let l = li - 1; l >= 0 && l >= li - 30; l--) {
    const up = lines[l]!;
    if ((prevTop - up.box[3]) * H > 2.5 * line.height) break;
    const seg = up.segments.find((s) => Math.min(s.box[2], x1) - Math.max(s.box[0], x0) > 0);
    if (!seg) {
      // A sparse column (a statement's "Credit", filled on some rows only): rows of figures
      // with this cell empty are still the table, so its header is further up.
      if (!figureRow(up)) break;
      prevTop = up.box[1];
      continue;
    }
    head = seg.text;
    if (!valueLike(seg.text)) break;
    prevTop = up.box[1];
  }
  return head;
}

/** A filled cell of a row of figures: the words of its amount and its column's header. */
interface FilledCell {
  words: readonly number[];
  head: string;
}

/**
 * Per table row of figures on a page (by line), the cells its amounts fill with their column
 * headers (memoised per page).
 */
function filledCellsOf(index: DocIndex, page: number): Map<number, FilledCell[]> {
  const key = `filled-cells:${page}`;
  const hit = index.memo.get(key) as Map<number, FilledCell[]> | undefined;
  if (hit) return hit;
  const out = new Map<number, FilledCell[]>();
  const lines = index.layouts[page]!.lines;
  const H = index.doc.pages[page]!.height || 792;
  lines.forEach((line, li) => {
    if (!figureRow(line)) return;
    const cells: FilledCell[] = [];
    for (const seg of line.segments) {
      if (!valueLike(seg.text) || !/\d/.test(seg.text)) continue;
      const head = columnHeadOf(lines, li, seg.box[0], seg.box[2], H);
      if (head && !valueLike(head)) cells.push({ words: seg.words, head });
    }
    if (cells.length) out.set(li, cells);
  });
  index.memo.set(key, out);
  return out;
}

/**
 * For a value on a table row of figures, the headers of the row's other columns that hold an
 * amount: a statement's "Paid in" or "Debit", whichever is filled, says what kind of row it is.
 */
export function filledColumnsOf(index: DocIndex, at: Located): string[] {
  const first = at.unit.words[at.from]!;
  const cells = filledCellsOf(index, at.page).get(lineOfWord(index, at.page)[first]!) ?? [];
  return cells.filter((c) => !c.words.includes(first)).map((c) => c.head);
}

/**
 * Per table row of figures on a page, the headers of every column its amounts fill (the row's own
 * value included): the rows whose filled columns say what is asked, against the others.
 */
export function filledRowsOf(index: DocIndex, page: number): Map<number, string[]> {
  const key = `filled-rows:${page}`;
  const hit = index.memo.get(key) as Map<number, string[]> | undefined;
  if (hit) return hit;
  const out = new Map([...filledCellsOf(index, page)].map(([li, cells]) => [li, cells.map((c) => c.head)]));
  index.memo.set(key, out);
  return out;
}

/** A line numbered as a section: "3. Recommendations", "2.1 Fees", "IV. Term", "ARTICLE 5", "Section 7". */
const NUMBERED_HEADING =
  /^(?:\d{1,2}(?:\.\d{1,2})*\.?|[IVX]{1,6}\.|(?:article|section|part|schedule)\s+[\dIVX]+[.:]?)(?:\s+\p{Lu}|$)/iu;

/**
 * Whether a line reads as a heading: alone on its line, a few words without a sentence's end,
 * and set apart as headings are: a larger size than the page's text, capitals, or a section number.
 */
function headingLike(line: Line, bodyHeight: number): boolean {
  if (line.segments.length !== 1) return false;
  const text = line.segments[0]!.text.trim();
  const words = text.split(/\s+/);
  // A sentence's end may sit inside its closing quote or bracket ("PROVIDED “AS IS.”").
  if (words.length > 8 || /[.,;]["”’')\]]*$/.test(text) || !/\p{L}{3}/u.test(text)) return false;
  const letters = text.replace(/[^\p{L}]/gu, '');
  const capitals = letters.length >= 4 && letters === letters.toUpperCase();
  return line.height >= bodyHeight * 1.15 || capitals || NUMBERED_HEADING.test(text);
}

/**
 * Per line of a page, the section heading above it, and one entry more: the section its last
 * line leaves open, which runs on over the page break until the next heading (memoised per page).
 */
function sectionsOf(index: DocIndex, page: number): string[] {
  const key = `sections:${page}`;
  const hit = index.memo.get(key) as string[] | undefined;
  if (hit) return hit;
  const lines = index.layouts[page]!.lines;
  const body = bodyOf(lines);
  const out: string[] = [];
  let current = page > 0 ? sectionsOf(index, page - 1).at(-1)! : '';
  for (const line of lines) {
    out.push(current);
    if (headingLike(line, body)) current = line.segments[0]!.text.trim();
  }
  out.push(current);
  index.memo.set(key, out);
  return out;
}

/** The height of a page's running text: the median line height. */
function bodyOf(lines: readonly Line[]): number {
  const heights = lines.map((l) => l.height).sort((a, b) => a - b);
  return heights[Math.floor(heights.length / 2)] ?? 10;
}
