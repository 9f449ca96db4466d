import { examine } from '../local/answer-document.ts';
import type { Passage } from '../local/doc-index.ts';
import { indexFor } from '../local/doc-index.ts';
import { defaultModel } from '../local/model.ts';
import { analyzeQuery, type Query } from '../local/query.ts';
import { scorePassages, topPassages } from '../local/retrieval.ts';
import type { Box, EngineColumn, EngineDocument } from '../types.ts';

/**
 * What a model is shown of a subject: the contexts of the local engine's best typed
 * candidates for the column (so both engines share retrieval), then BM25 passages, widened
 * to whole lines with one line of context each side, or every page when the documents are small.
 */
export interface RetrievalBudget {
  /** Passages per document when each document is asked alone. */
  perDocument: number;
  /** Passages across the whole subject for a compositional question. */
  perSubject: number;
  /** Documents (or subjects) of at most this many words are sent whole. */
  tinyWords: number;
  /** Upper bound on the characters of excerpt text in one request. */
  maxChars: number;
}

export const DEFAULT_BUDGET: RetrievalBudget = {
  perDocument: 12,
  perSubject: 24,
  tinyWords: 1500,
  maxChars: 24_000,
};

export interface LabelledDocument {
  /** D1, D2, ... in subject order. */
  label: string;
  doc: EngineDocument;
}

export interface Excerpt {
  doc: LabelledDocument;
  /** 1-based page number. */
  page: number;
  text: string;
  /** Relevance, to choose which pages to show as images; the whole page scores 0. */
  score: number;
}

/** Lines of context kept around a retrieved passage. */
const CONTEXT_LINES = 1;

export function selectExcerpts(
  docs: readonly LabelledDocument[],
  column: Pick<EngineColumn, 'prompt' | 'outputType' | 'config'>,
  mode: 'document' | 'subject',
  budget: RetrievalBudget,
): Excerpt[] {
  const words = (d: EngineDocument) => d.pages.reduce((n, p) => n + p.words.length, 0);
  const total = docs.reduce((n, d) => n + words(d.doc), 0);
  if (total <= budget.tinyWords) return capChars(docs.flatMap(wholePages), budget.maxChars);

  const query = analyzeQuery(column.prompt);
  const k = mode === 'document' ? budget.perDocument : budget.perSubject;
  // Scores of different documents are put on one scale by each document's best passage,
  // so a compositional budget spreads over every document that answers at all.
  const picked: { doc: LabelledDocument; pageIndex: number; words: number[]; score: number; rel: number }[] =
    [];
  for (const d of docs) {
    if (words(d.doc) <= Math.min(200, budget.tinyWords)) {
      picked.push(...d.doc.pages.map((_, pageIndex) => ({ doc: d, pageIndex, words: [], score: 0, rel: 1 })));
      continue;
    }
    const top = bestPassages(d.doc, column, query, k);
    const best = top[0]?.score ?? 0;
    for (const s of top) {
      picked.push({
        doc: d,
        pageIndex: s.passage.page,
        words: s.passage.words,
        score: s.score,
        rel: s.score / best,
      });
    }
  }
  picked.sort((a, b) => b.rel - a.rel || b.score - a.score);
  const chosen = mode === 'subject' ? picked.slice(0, k) : picked;
  if (chosen.length === 0) {
    // Nothing matches the prompt's words: the start of each document, where most fields are.
    return capChars(
      docs.flatMap((d) => wholePages(d).slice(0, 2)),
      budget.maxChars,
    );
  }
  const out: Excerpt[] = [];
  for (const d of docs) {
    const mine = chosen.filter((c) => c.doc === d);
    const byPage = new Map<number, typeof mine>();
    for (const c of mine) byPage.set(c.pageIndex, [...(byPage.get(c.pageIndex) ?? []), c]);
    for (const pageIndex of [...byPage.keys()].sort((a, b) => a - b)) {
      const hits = byPage.get(pageIndex)!;
      const page = d.doc.pages[pageIndex]!;
      if (hits.some((h) => h.words.length === 0)) {
        if (page.text.trim()) out.push({ doc: d, page: page.page, text: page.text.trim(), score: 0 });
        continue;
      }
      const layout = indexFor(d.doc).layouts[pageIndex]!;
      const lineOf = new Map<number, number>();
      layout.lines.forEach((line, li) => {
        for (const w of line.words) lineOf.set(w, li);
      });
      const windows: { from: number; to: number; score: number }[] = [];
      for (const h of hits) {
        const lines = h.words.map((w) => lineOf.get(w) ?? 0);
        windows.push({
          from: Math.max(0, Math.min(...lines) - CONTEXT_LINES),
          to: Math.min(layout.lines.length - 1, Math.max(...lines) + CONTEXT_LINES),
          score: h.score,
        });
      }
      for (const w of mergeWindows(windows)) {
        const text = layout.lines
          .slice(w.from, w.to + 1)
          .map((line) => line.segments.map((s) => s.text).join(' | '))
          .join('\n');
        out.push({ doc: d, page: page.page, text, score: w.score });
      }
    }
  }
  return capChars(out, budget.maxChars);
}

/**
 * The passages holding the local scorer's most probable candidates (their probability as
 * score), topped up with the BM25 passages most about the question.
 */
function bestPassages(
  doc: EngineDocument,
  column: Pick<EngineColumn, 'prompt' | 'outputType' | 'config'>,
  query: Query,
  k: number,
): { passage: Passage; score: number }[] {
  const out: { passage: Passage; score: number }[] = [];
  const seen = new Set<number>();
  const usable = column.outputType !== 'categorical' || Boolean(column.config?.categories?.length);
  if (usable && doc.pages.some((p) => p.words.length)) {
    const full = { ...column, isCompositional: false, locale: null };
    const model = defaultModel();
    const e = examine(full, query, doc, model);
    // Only candidates the scorer finds plausible: below its threshold they are noise.
    const bar = Math.max(0.05, model.groups[e.group].threshold);
    for (const s of e.scored) {
      if (out.length >= Math.max(1, Math.floor(k / 4)) || s.p < bar) break;
      const unit = s.cand.at.unit;
      if (seen.has(unit.id)) continue;
      seen.add(unit.id);
      out.push({ passage: unit, score: 1 + s.p });
    }
  }
  const index = indexFor(doc);
  for (const s of topPassages(index, scorePassages(index, query), k)) {
    if (out.length >= k) break;
    if (seen.has(s.passage.id)) continue;
    seen.add(s.passage.id);
    out.push({ passage: s.passage, score: s.score / (s.score + 1) });
  }
  return out;
}

function wholePages(d: LabelledDocument): Excerpt[] {
  return d.doc.pages
    .filter((p) => p.text.trim() !== '')
    .map((p) => ({ doc: d, page: p.page, text: p.text.trim(), score: 0 }));
}

function mergeWindows(ws: { from: number; to: number; score: number }[]) {
  const sorted = [...ws].sort((a, b) => a.from - b.from);
  const out: { from: number; to: number; score: number }[] = [];
  for (const w of sorted) {
    const last = out[out.length - 1];
    if (last && w.from <= last.to + 1) {
      last.to = Math.max(last.to, w.to);
      last.score = Math.max(last.score, w.score);
    } else out.push({ ...w });
  }
  return out;
}

/** Keeps the most relevant excerpts within the character budget, in their reading order. */
function capChars(excerpts: Excerpt[], maxChars: number): Excerpt[] {
  let used = 0;
  const keep = new Set<Excerpt>();
  const byValue = excerpts.map((e, i) => ({ e, i })).sort((a, b) => b.e.score - a.e.score || a.i - b.i);
  for (const { e } of byValue) {
    if (used >= maxChars) break;
    if (used + e.text.length > maxChars) {
      const room = maxChars - used;
      if (room < 200) continue;
      const cut: Excerpt = { ...e, text: `${e.text.slice(0, room)} [...]` };
      excerpts[excerpts.indexOf(e)] = cut;
      keep.add(cut);
      used = maxChars;
      break;
    }
    keep.add(e);
    used += e.text.length;
  }
  return excerpts.filter((e) => keep.has(e));
}

/** A picture (or a whole page) an image column may answer with. */
export interface ImageCandidate {
  id: string;
  doc: LabelledDocument;
  page: number;
  /** null: the whole page. */
  box: Box | null;
  /** Words printed near or on the picture, to help the model choose. */
  near: string;
}

const MAX_PICTURES = 40;
const MAX_WHOLE_PAGES = 8;

/**
 * Image columns choose among the pictures PDFium found on the pages and, for documents
 * without suitable pictures, whole pages: those the excerpts came from, else the first.
 */
export function imageCandidates(docs: readonly LabelledDocument[], excerpts: readonly Excerpt[]) {
  const out: ImageCandidate[] = [];
  for (const d of docs) {
    const relevant = [...new Set(excerpts.filter((e) => e.doc === d).map((e) => e.page))];
    const rank = (page: number) => {
      const at = relevant.indexOf(page);
      return at < 0 ? relevant.length + page : at;
    };
    const pictures: ImageCandidate[] = [];
    for (const p of d.doc.pages) {
      p.images.forEach((img, i) => {
        pictures.push({
          id: `${d.label}-p${p.page}-i${i + 1}`,
          doc: d,
          page: p.page,
          box: img.box,
          near: wordsNear(p.words, img.box),
        });
      });
    }
    pictures.sort((a, b) => rank(a.page) - rank(b.page));
    out.push(...pictures.slice(0, MAX_PICTURES));
    const pages = (relevant.length ? relevant : d.doc.pages.map((p) => p.page)).slice(0, MAX_WHOLE_PAGES);
    for (const page of pages) {
      const p = d.doc.pages.find((x) => x.page === page)!;
      out.push({
        id: `${d.label}-p${page}`,
        doc: d,
        page,
        box: null,
        near: p.words
          .slice(0, 12)
          .map((w) => w.text)
          .join(' '),
      });
    }
  }
  return out;
}

function wordsNear(words: readonly { text: string; box: Box }[], box: Box): string {
  const pad = 0.04;
  return words
    .filter(
      (w) =>
        w.box[0] < box[2] + pad &&
        w.box[2] > box[0] - pad &&
        w.box[1] < box[3] + pad &&
        w.box[3] > box[1] - pad,
    )
    .slice(0, 20)
    .map((w) => w.text)
    .join(' ');
}

export function describeCandidate(c: ImageCandidate): string {
  const where = c.box
    ? `picture on ${c.doc.label} page ${c.page}, ${pct(c.box[0])}-${pct(c.box[2])} across, ${pct(c.box[1])}-${pct(c.box[3])} down`
    : `the whole of ${c.doc.label} page ${c.page}`;
  return `[${c.id}] ${where}${c.near ? `; text nearby: "${c.near}"` : ''}`;
}

const pct = (x: number) => `${Math.round(x * 100)}%`;
