/**
 * The rule-based scorer (hand-weighted evidence, per-type bars): kept as the default until the
 * learned scorer (answer-document.ts, `LOCAL_SCORER=learned`) beats it on every check.
 */
import { citeWords } from '../citations.ts';
import type { AnswerValue, Citation, EngineColumn, EngineDocument, Region } from '../types.ts';
import { indexFor } from './doc-index.ts';
import { booleanOption } from './extract/boolean.ts';
import { categoricalOptions } from './extract/categorical.ts';
import { type Context, contextFor, type Option } from './extract/common.ts';
import { dateOptions } from './extract/dates.ts';
import { durationOptions } from './extract/durations.ts';
import { regionOptions } from './extract/images.ts';
import { listOptions } from './extract/lists.ts';
import { numberOptions } from './extract/numbers.ts';
import { textOptions } from './extract/text.ts';
import { analyzeQuery, type Query } from './query.ts';
import { topPassages } from './retrieval.ts';

/** One document's answer: what a fact holds, plus the score bundles reduce on. */
export interface DocumentAnswer {
  status: 'SUCCESS' | 'ERROR';
  statusText?: string;
  value: AnswerValue | null;
  citations: Citation[];
  confidence: number | null;
  /** Evidence score of the chosen value (0 when the document holds no value). */
  score: number;
  /** Found nothing: value is `{type, value: null}`. */
  empty: boolean;
}

/** Below this evidence score the document is taken not to state the value at all. */
const NULL_BELOW: Record<string, number> = {
  text_quote: 0.42,
  number: 0.4,
  date: 0.4,
  categorical: 0.3,
  list_scalar: 0.35,
};

const clamp01 = (x: number) => Math.max(0, Math.min(1, x));

/** Confidence from the winning score and its margin over the next different value. */
export function confidenceOf(options: readonly { score: number }[]): number {
  const top = options[0]?.score ?? 0;
  const second = options[1]?.score ?? 0;
  const margin = top > 0 ? clamp01((top - second) / top) : 0;
  return Math.round(clamp01(0.1 + 0.75 * Math.min(1, top) * (0.55 + 0.45 * margin)) * 1000) / 1000;
}

export function queryFor(column: EngineColumn): Query {
  return analyzeQuery(column.prompt);
}

export function answerDocument(column: EngineColumn, query: Query, doc: EngineDocument): DocumentAnswer {
  const type = column.outputType;
  const hasText = doc.pages.some((p) => p.words.length > 0);
  if (type === 'categorical' && !column.config?.categories?.length) {
    return error('column has no categories');
  }
  if (!hasText && type !== 'image' && type !== 'image_list') {
    return error(doc.pages.length ? 'no readable text in the document' : 'the document has no pages');
  }
  const ctx = contextFor(indexFor(doc), query, column.config);
  switch (type) {
    case 'image':
    case 'image_list':
      return regions(ctx, type);
    case 'list_scalar': {
      const options = listOptions(ctx);
      const top = options[0];
      if (!top || top.score < NULL_BELOW.list_scalar!) return empty(type, options);
      return found({ type, value: top.items }, top, options);
    }
    case 'boolean': {
      const valueOptions = booleanNeedsValue(query) ? valueOptionsFor(ctx) : null;
      const o = booleanOption(ctx, valueOptions);
      return {
        status: 'SUCCESS',
        value: { type, value: o.value as boolean },
        // Yes or no, the answer rests on a passage: the best one when the option names none.
        citations: o.citations.length ? o.citations : bestPassageCitation(ctx),
        confidence: Math.round(clamp01(0.15 + 0.8 * o.score) * 1000) / 1000,
        score: o.score,
        empty: false,
      };
    }
    default: {
      const options: Option[] =
        type === 'number'
          ? numberOptions(ctx)
          : type === 'date'
            ? dateOptions(ctx)
            : type === 'categorical'
              ? categoricalOptions(ctx, column.config!.categories!)
              : textOptions(ctx);
      const top = options[0];
      // An identifier is only ever read next to its label, so a weaker score still counts.
      const bar = type === 'text_quote' && query.kind === 'identifier' ? 0.28 : NULL_BELOW[type]!;
      if (!top || top.score < bar) return empty(type, options);
      return found({ type, value: top.value }, top, options);
    }
  }
}

/** The winning option as this document's answer, its confidence from the runners-up. */
function found(
  value: AnswerValue,
  top: { score: number; citations: Citation[] },
  options: readonly { score: number }[],
): DocumentAnswer {
  return {
    status: 'SUCCESS',
    value,
    citations: top.citations,
    confidence: confidenceOf(options),
    score: top.score,
    empty: false,
  };
}

/** "Does it state a term / a date / an amount?" is answered by finding that value. */
function booleanNeedsValue(q: Query): boolean {
  return q.kind === 'duration' || q.kind === 'date' || q.kind === 'money' || q.kind === 'identifier';
}

function valueOptionsFor(ctx: Context): Option[] {
  switch (ctx.query.kind) {
    case 'duration':
      return durationOptions(ctx);
    case 'date':
      return dateOptions(ctx);
    case 'money':
      return numberOptions(ctx);
    default:
      return textOptions(ctx);
  }
}

function regions(ctx: Context, type: 'image' | 'image_list'): DocumentAnswer {
  const options = regionOptions(ctx);
  if (options.length === 0) return error('the document has no pages');
  const top = options[0]!;
  const chosen: Region[] =
    type === 'image'
      ? [top.region]
      : options.filter((o) => o.score >= Math.max(0.35, top.score - 0.2)).map((o) => o.region);
  return {
    status: 'SUCCESS',
    value: chosen,
    // Each region cites its page: its caption's words, else the page's best passage.
    citations: chosen.flatMap((r) => regionCitation(ctx, r)),
    confidence: confidenceOf(type === 'image' ? options : [top, ...options.slice(chosen.length)]),
    score: top.score,
    empty: false,
  };
}

function bestPassageCitation(ctx: Context, pageIndex?: number): Citation[] {
  const best = topPassages(ctx.index, ctx.scores, 50).find(
    (s) => pageIndex === undefined || s.passage.page === pageIndex,
  );
  const passage =
    best?.passage ?? ctx.index.units.find((u) => pageIndex === undefined || u.page === pageIndex);
  if (!passage) return [];
  const c = citeWords(ctx.index.doc.fileId, ctx.index.doc.pages[passage.page]!, passage.words.slice(0, 40));
  return c ? [c] : [];
}

function regionCitation(ctx: Context, r: Region): Citation[] {
  const pageIndex = ctx.index.doc.pages.findIndex((p) => p.page === r.page);
  if (pageIndex < 0) return [];
  const page = ctx.index.doc.pages[pageIndex]!;
  const words = page.words.map((w) => w.text);
  const caption = r.caption.split(/\s+/).filter(Boolean);
  for (let i = 0; caption.length && i + caption.length <= words.length; i++) {
    if (caption.every((w, k) => words[i + k] === w)) {
      const c = citeWords(
        ctx.index.doc.fileId,
        page,
        caption.map((_, k) => i + k),
      );
      if (c) return [c];
    }
  }
  return bestPassageCitation(ctx, pageIndex);
}

function empty(
  type: Exclude<EngineColumn['outputType'], 'image' | 'image_list'>,
  options: readonly { score: number }[],
): DocumentAnswer {
  const top = options[0]?.score ?? 0;
  // Confidence that the value is absent (issue 13: confidence is about the answer given, here
  // "not stated"): high when nothing came close, lower after a near miss.
  const confidence = Math.round(clamp01(0.9 - 0.6 * top) * 1000) / 1000;
  return {
    status: 'SUCCESS',
    value: { type, value: null },
    citations: [],
    confidence,
    score: 0,
    empty: true,
  };
}

function error(statusText: string): DocumentAnswer {
  return { status: 'ERROR', statusText, value: null, citations: [], confidence: null, score: 0, empty: true };
}
