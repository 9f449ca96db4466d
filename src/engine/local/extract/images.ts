import { contentStems } from '../../text/tokenize.ts';
import type { Box, Region } from '../../types.ts';
import { topPassages } from '../retrieval.ts';
import type { Context } from './common.ts';

export interface RegionOption {
  region: Region;
  score: number;
}

const KINDS: [RegExp, (box: Box, caption: string) => number][] = [
  [
    /\blogo|letterhead|brand/i,
    // Small, near the top, not a captioned figure.
    (b, c) =>
      (b[1] < 0.25 ? 0.2 : 0) +
      ((b[2] - b[0]) * (b[3] - b[1]) < 0.05 ? 0.15 : -0.15) -
      (/^(?:figure|fig\.|chart|table)\b/i.test(c) ? 0.2 : 0),
  ],
  [/\bsignature|signed|sign/i, (b, c) => (/sign|by:|name|title/i.test(c) ? 0.3 : 0) + (b[1] > 0.5 ? 0.1 : 0)],
  [
    /\bchart|graph|plot|figure|diagram|photo|picture|image|table/i,
    (b) => ((b[2] - b[0]) * (b[3] - b[1]) > 0.05 ? 0.15 : 0),
  ],
];

/** Text near a picture: its caption below, else a heading above, else words beside it. */
function captionOf(ctx: Context, pageIndex: number, box: Box): string {
  const page = ctx.index.doc.pages[pageIndex]!;
  const near = (pick: (b: Box) => boolean) =>
    page.words
      .filter((w) => pick(w.box) && w.box[0] < box[2] + 0.05 && w.box[2] > box[0] - 0.05)
      .map((w) => w.text);
  const below = near((b) => b[1] >= box[3] && b[1] - box[3] < 0.04);
  if (below.length) return below.slice(0, 20).join(' ');
  const above = near((b) => b[3] <= box[1] && box[1] - b[3] < 0.04);
  return above.slice(-20).join(' ');
}

/**
 * Picture regions that match the prompt: image objects of the pages ranked by their
 * caption's words and by what the prompt asks for (logo, signature, chart); a document
 * without pictures answers with its most relevant page as a whole (box null).
 */
export function regionOptions(ctx: Context): RegionOption[] {
  const doc = ctx.index.doc;
  const terms = new Set(ctx.query.terms);
  const out: RegionOption[] = [];
  doc.pages.forEach((page, pi) => {
    const pageRel =
      Math.max(0, ...ctx.index.passages.filter((p) => p.page === pi).map((p) => ctx.scores[p.id]!)) /
      (ctx.best || 1);
    for (const img of page.images) {
      const caption = captionOf(ctx, pi, img.box);
      const stems = contentStems(caption);
      const hits = stems.filter((s) => ctx.query.weights.has(s)).length;
      let score = 0.3 + 0.3 * Math.min(1, hits / Math.max(1, Math.min(3, terms.size))) + 0.15 * pageRel;
      for (const [re, bonus] of KINDS) if (re.test(ctx.query.prompt)) score += bonus(img.box, caption);
      // Letterheads and logos open a document.
      if (/\blogo|letterhead/i.test(ctx.query.prompt) && pi === 0) score += 0.1;
      // A full-page picture is a scan, not a figure.
      if ((img.box[2] - img.box[0]) * (img.box[3] - img.box[1]) > 0.85) score -= 0.2;
      out.push({
        region: { fileId: doc.fileId, page: page.page, box: img.box, caption: caption || 'picture' },
        score,
      });
    }
  });
  if (out.length === 0 && doc.pages.length > 0) {
    const [best] = topPassages(ctx.index, ctx.scores, 1);
    const pi = best ? best.passage.page : 0;
    const caption = best ? best.passage.text.slice(0, 200) : `page ${doc.pages[pi]!.page}`;
    out.push({
      region: { fileId: doc.fileId, page: doc.pages[pi]!.page, box: null, caption },
      score: best ? 0.35 : 0.2,
    });
  }
  return out.sort((a, b) => b.score - a.score);
}
