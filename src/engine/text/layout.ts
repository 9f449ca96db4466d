import type { Box, EnginePage } from '../types.ts';

/**
 * The geometry of a page's words: lines (words sharing a baseline band, left to right)
 * cut into segments at wide gaps (form fields, table cells, columns). Engines reason on
 * these: a label and its value sit in neighbouring segments, on one line or one below.
 */
export interface Segment {
  /** Indices into page.words, left to right. */
  words: number[];
  text: string;
  box: Box;
  line: number;
}

export interface Line {
  words: number[];
  segments: Segment[];
  box: Box;
  /** Median word height in points. */
  height: number;
}

export interface PageLayout {
  page: EnginePage;
  lines: Line[];
}

/** A word that only separates the fields of a line: a middle dot, a bullet, a bar. */
const FIELD_SEPARATOR = /^[·•|]$/;

/** A gap wider than this many line heights separates two segments. */
const SEGMENT_GAP = 1.15;

export function layoutPage(page: EnginePage): PageLayout {
  const words = page.words;
  const W = page.width || 612;
  const H = page.height || 792;
  const order = words.map((_, i) => i);
  const yc = (i: number) => (words[i]!.box[1] + words[i]!.box[3]) / 2;
  order.sort((a, b) => yc(a) - yc(b) || words[a]!.box[0] - words[b]!.box[0]);

  const groups: number[][] = [];
  let band: [number, number] = [0, 0];
  for (const i of order) {
    const [, y0, , y1] = words[i]!.box;
    const cur = groups[groups.length - 1];
    if (cur) {
      const overlap = Math.min(band[1], y1) - Math.max(band[0], y0);
      const h = Math.min(band[1] - band[0], y1 - y0);
      if (overlap >= 0.5 * h) {
        cur.push(i);
        // The band follows the line's first words, so a tall word cannot swallow the next line.
        continue;
      }
    }
    groups.push([i]);
    band = [y0, y1];
  }

  const lines: Line[] = groups.map((g, lineIndex) => {
    g.sort((a, b) => words[a]!.box[0] - words[b]!.box[0]);
    const heights = g.map((i) => (words[i]!.box[3] - words[i]!.box[1]) * H).sort((a, b) => a - b);
    const height = heights[Math.floor(heights.length / 2)] || 10;
    const segments: Segment[] = [];
    let seg: number[] = [];
    for (const [k, i] of g.entries()) {
      const prev = seg[seg.length - 1];
      // A dot or bar between the words of a line separates its fields as a gap does ("Lease
      // Agreement · 12 Elm Street · page 2"); it belongs to neither.
      if (k > 0 && FIELD_SEPARATOR.test(words[i]!.text)) {
        if (seg.length) segments.push(makeSegment(page, seg, lineIndex));
        seg = [];
        continue;
      }
      if (prev !== undefined && (words[i]!.box[0] - words[prev]!.box[2]) * W > SEGMENT_GAP * height) {
        segments.push(makeSegment(page, seg, lineIndex));
        seg = [];
      }
      seg.push(i);
    }
    if (seg.length) segments.push(makeSegment(page, seg, lineIndex));
    return { words: g, segments, box: unionBox(page, g), height };
  });
  return { page, lines };
}

function makeSegment(page: EnginePage, words: number[], line: number): Segment {
  return { words, text: words.map((i) => page.words[i]!.text).join(' '), box: unionBox(page, words), line };
}

export function unionBox(page: EnginePage, words: readonly number[]): Box {
  let x0 = 1;
  let y0 = 1;
  let x1 = 0;
  let y1 = 0;
  for (const i of words) {
    const b = page.words[i]!.box;
    if (b[0] < x0) x0 = b[0];
    if (b[1] < y0) y0 = b[1];
    if (b[2] > x1) x1 = b[2];
    if (b[3] > y1) y1 = b[3];
  }
  return [x0, y0, x1, y1];
}

/** The segment under `seg` (next line or the one after), overlapping it most horizontally. */
export function segmentBelow(layout: PageLayout, seg: Segment): Segment | null {
  const H = layout.page.height || 792;
  const line = layout.lines[seg.line]!;
  for (let l = seg.line + 1; l < Math.min(layout.lines.length, seg.line + 3); l++) {
    const next = layout.lines[l]!;
    if ((next.box[1] - line.box[3]) * H > 2.5 * line.height) return null;
    let best: Segment | null = null;
    let bestOverlap = 0;
    for (const s of next.segments) {
      const overlap = Math.min(s.box[2], seg.box[2]) - Math.max(s.box[0], seg.box[0]);
      if (overlap > bestOverlap) {
        best = s;
        bestOverlap = overlap;
      }
    }
    if (best) return best;
  }
  return null;
}

/** The segment right of `seg` on its line, if any. */
export function segmentRight(layout: PageLayout, seg: Segment): Segment | null {
  const segs = layout.lines[seg.line]!.segments;
  const at = segs.indexOf(seg);
  return at >= 0 && at + 1 < segs.length ? segs[at + 1]! : null;
}
