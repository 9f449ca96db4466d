import { citeWords, locateQuote } from '../../citations.ts';
import { contentStems } from '../../text/tokenize.ts';
import type { Citation } from '../../types.ts';
import { enumerateItems, isFullName } from '../enumerate.ts';
import { inQuestionWords } from '../query.ts';
import { labelScore, topPassages } from '../retrieval.ts';
import type { Context } from './common.ts';

export interface ListOption {
  items: string[];
  score: number;
  citations: Citation[];
}

const BULLET = /^(?:[•●▪◦‣\-–*]|\(?[a-z0-9]{1,3}[.)])\s+/i;

/** Every item a list question asks for: enumerations in prose, bullets, or a table column. */
export function listOptions(ctx: Context): ListOption[] {
  const out: ListOption[] = [];
  const doc = ctx.index.doc;
  // Enumerations of parties open a document: its first sentences naming "between"/"among" count too.
  const asksParties = ctx.query.terms.some(
    (t) => t === 'parti' || t === 'between' || t === 'among' || t === 'signatori',
  );
  // Blanks left in a form ("as of this ____ day") cut a preamble into several units: read on.
  const units = ctx.index.units;
  const continued = new Map<number, string>();
  const opening = units
    .filter((u) => asksParties && u.page < 2 && /\b(?:between|among|amongst)\b/i.test(u.text))
    .slice(0, 4)
    .map((passage) => {
      const at = units.indexOf(passage);
      const next = units.slice(at + 1, at + 4).filter((u) => u.page === passage.page);
      continued.set(passage.id, [passage.text, ...next.map((u) => u.text)].join(' '));
      return { passage, score: ctx.scores[passage.id]! };
    });
  const seen = new Set<number>();
  for (const s of [...topPassages(ctx.index, ctx.scores, 8, ['sentence', 'line']), ...opening]) {
    if (seen.has(s.passage.id)) continue;
    seen.add(s.passage.id);
    const rel = s.score / (ctx.best || 1) + (s.passage.page === 0 ? 0.15 : 0);
    const items = dedupe(enumerateItems(continued.get(s.passage.id) ?? s.passage.text));
    if (items.length) {
      const page = doc.pages[s.passage.page]!;
      const citations = items
        .map((i) => locateQuote(doc.fileId, page, i))
        .filter((c): c is Citation => c !== null);
      // Full names ("USANA Health Sciences, Inc.") beat the short names defined for them.
      const full = items.filter(isFullName).length;
      out.push({
        items,
        score: 0.35 + 0.45 * rel + 0.1 * Math.min(items.length, 2) + 0.06 * Math.min(full, 2),
        citations,
      });
    }
  }
  // A heading followed by bullet lines, or a table header with cells below it.
  for (const layout of ctx.index.layouts) {
    layout.lines.forEach((line, li) => {
      for (const seg of line.segments) {
        // A heading ending with a colon introduces a list: one prompt word in it is enough.
        const heading =
          /:$/.test(seg.text) && ctx.query.terms.some((t) => contentStems(seg.text).includes(t));
        // A column header in the question's own words ("Name" for "the names of ..."), even
        // when the word only names the kind of answer.
        const header = line.segments.length > 1 && inQuestionWords(seg.text, ctx.query);
        const label = Math.max(labelScore(seg.text, ctx.query), heading || header ? 0.6 : 0);
        if (label < 0.4) continue;
        const items: string[] = [];
        const cites: Citation[] = [];
        for (let l = li + 1; l < layout.lines.length && items.length < 50; l++) {
          const next = layout.lines[l]!;
          const cell = next.segments.find(
            (x) => Math.min(x.box[2], seg.box[2]) - Math.max(x.box[0], seg.box[0]) > 0,
          );
          // A table ends where its rows stop having several cells.
          if (!cell || (line.segments.length > 1 && next.segments.length < 2)) break;
          const text = cell.text.replace(BULLET, '').trim();
          if (!text || (line.segments.length === 1 && !BULLET.test(cell.text))) break;
          items.push(text);
          const c = citeWords(doc.fileId, layout.page, cell.words);
          if (c) cites.push(c);
        }
        if (items.length >= 2) out.push({ items: dedupe(items), score: 0.3 + 0.5 * label, citations: cites });
      }
    });
  }
  return out.sort((a, b) => b.score - a.score);
}

function dedupe(items: string[]): string[] {
  const seen = new Set<string>();
  return items.filter((i) => {
    const k = i
      .toUpperCase()
      .replace(/[^A-Z0-9]+/g, ' ')
      .trim();
    if (seen.has(k)) return false;
    seen.add(k);
    return true;
  });
}
