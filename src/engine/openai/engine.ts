import { factOf, orderDocuments, type PerDocument, reduce } from '../reduce.ts';
import type {
  AnswerEngine,
  AnswerValue,
  Citation,
  EngineAnswer,
  EngineColumn,
  EngineDocument,
  EngineSubject,
  Fact,
  Region,
} from '../types.ts';
import {
  ChatClient,
  type ChatMessage,
  type ChatRequest,
  type ChatResult,
  ModelServerError,
} from './client.ts';
import {
  DEFAULT_BUDGET,
  type ImageCandidate,
  imageCandidates,
  type LabelledDocument,
  type RetrievalBudget,
  selectExcerpts,
} from './context.ts';
import { loadPageImages, type PageImageLoader } from './images.ts';
import { coerceValue, InvalidAnswer, parseAnswer, type RawAnswer } from './parse.ts';
import { systemPrompt, userPrompt } from './prompt.ts';
import { verifyQuotes } from './quotes.ts';
import { responseFormat } from './schema.ts';

export type { PageImageLoader } from './images.ts';

/** The server and its limits, as the `OPENAI_*` settings give them. */
export interface OpenAISettings {
  baseUrl: string;
  apiKey: string | null;
  model: string;
  /** Send page images (as data URLs) to models that take them; needs `pageImage`. */
  vision: boolean;
  timeoutMs: number;
  maxRetries: number;
  concurrency: number;
}

export interface OpenAIEngineOptions extends OpenAISettings {
  /** Reads a page's stored image; without it no images are sent. */
  pageImage?: PageImageLoader;
  /** Pages shown as images per request. Default 4. */
  maxImages?: number;
  retrieval?: Partial<RetrievalBudget>;
  retryBaseMs?: number;
  maxDelayMs?: number;
  fetch?: typeof fetch;
}

/** An answer of one call without verified evidence is worth at most this much. */
const UNVERIFIED_CAP = 0.35;
/** Each quote the page does not hold makes the rest of the answer less trustworthy. */
const DROPPED_QUOTE_FACTOR = 0.85;
/** A malformed answer is asked for once more. */
const ANSWER_ATTEMPTS = 2;

interface Found {
  value: AnswerValue;
  citations: Citation[];
  confidence: number;
  empty: boolean;
}

/** `failed`: the model call itself failed, as opposed to a document with nothing to ask about. */
type Outcome = ({ ok: true } & Found) | { ok: false; statusText: string; failed: boolean };

/**
 * The `openai` engine (D5): any OpenAI-compatible chat-completions server answers each
 * cell through a JSON schema for the output type, from passages the local retrieval
 * picks (and page images when enabled). Every quote the model gives is looked up in the
 * stored page words; only those found become citations, with the box of those words.
 */
export function createOpenAIEngine(opts: OpenAIEngineOptions): AnswerEngine {
  const client = new ChatClient({
    baseUrl: opts.baseUrl,
    apiKey: opts.apiKey,
    timeoutMs: opts.timeoutMs,
    maxRetries: opts.maxRetries,
    concurrency: opts.concurrency,
    retryBaseMs: opts.retryBaseMs,
    maxDelayMs: opts.maxDelayMs,
    fetch: opts.fetch,
  });
  const budget: RetrievalBudget = { ...DEFAULT_BUDGET, ...opts.retrieval };
  const closed = new AbortController();
  // Servers differ: some reject temperature (reasoning models) or json_schema (older
  // builds). A 400 naming the feature turns it off for this engine's lifetime.
  const compat = { temperature: true, format: 'json_schema' as 'json_schema' | 'json_object' | 'none' };

  async function send(request: ChatRequest, signal: AbortSignal): Promise<ChatResult> {
    for (;;) {
      const body: ChatRequest = { ...request };
      if (compat.temperature) body.temperature = 0;
      if (compat.format === 'json_object') body.response_format = { type: 'json_object' };
      else if (compat.format === 'none') delete body.response_format;
      try {
        return await client.complete(body, signal);
      } catch (err) {
        if (err instanceof ModelServerError && err.status === 400) {
          if (compat.temperature && /temperature/i.test(err.detail)) {
            compat.temperature = false;
            continue;
          }
          if (compat.format !== 'none' && /response_format|json_schema|json_object/i.test(err.detail)) {
            compat.format = compat.format === 'json_schema' ? 'json_object' : 'none';
            continue;
          }
        }
        throw err;
      }
    }
  }

  async function ask(
    column: EngineColumn,
    docs: LabelledDocument[],
    mode: 'document' | 'subject',
    signal: AbortSignal,
  ): Promise<Outcome> {
    const isImage = column.outputType === 'image' || column.outputType === 'image_list';
    const hasText = docs.some((d) => d.doc.pages.some((p) => p.words.length > 0));
    const canSee = opts.vision && opts.pageImage !== undefined;
    if (docs.every((d) => d.doc.pages.length === 0)) {
      return { ok: false, statusText: 'the document has no pages', failed: false };
    }
    if (!hasText && !isImage && !canSee) {
      return { ok: false, statusText: 'no readable text in the document', failed: false };
    }
    // Lists gather every item the documents give: they get twice the passages (2.2).
    const wide = column.outputType === 'list_scalar' || column.outputType === 'image_list';
    const b = wide
      ? { ...budget, perDocument: budget.perDocument * 2, perSubject: budget.perSubject * 2 }
      : budget;
    const excerpts = hasText ? selectExcerpts(docs, column, mode, b) : [];
    const candidates = isImage ? imageCandidates(docs, excerpts) : [];
    const images = canSee
      ? await loadPageImages(opts.pageImage!, docs, excerpts, candidates, opts.maxImages ?? 4, signal)
      : [];
    if (!hasText && !isImage && images.length === 0) {
      return { ok: false, statusText: 'no readable text in the document', failed: false };
    }
    const multi = docs.length > 1;
    const text = userPrompt(column, docs, excerpts, candidates);
    const messages: ChatMessage[] = [
      { role: 'system', content: systemPrompt(column, multi) },
      { role: 'user', content: images.length ? [{ type: 'text', text }, ...images] : text },
    ];
    const request: ChatRequest = {
      model: opts.model,
      messages,
      response_format: responseFormat(column, {
        documents: multi ? docs.map((d) => d.label) : null,
        candidates: candidates.map((c) => c.id),
      }),
    };
    let reason = '';
    for (let attempt = 0; attempt < ANSWER_ATTEMPTS; attempt++) {
      let result: ChatResult;
      try {
        result = await send(request, signal);
      } catch (err) {
        if (err instanceof ModelServerError) return { ok: false, statusText: err.message, failed: true };
        throw err;
      }
      if (result.refusal) {
        return { ok: false, statusText: `the model declined to answer: ${result.refusal}`, failed: true };
      }
      try {
        if (result.finishReason === 'length') throw new InvalidAnswer('the answer was cut off');
        return { ok: true, ...interpret(column, docs, candidates, parseAnswer(result.content)) };
      } catch (err) {
        if (!(err instanceof InvalidAnswer)) throw err;
        reason = err.message;
        messages.push(
          { role: 'assistant', content: result.content.slice(0, 4000) },
          {
            role: 'user',
            content: `That reply could not be used: ${reason}. Reply again with only the JSON object, following the rules.`,
          },
        );
      }
    }
    return {
      ok: false,
      statusText: `the model's answer could not be used (${reason}), also when asked again`,
      failed: true,
    };
  }

  return {
    name: 'openai',
    async answer(column: EngineColumn, subject: EngineSubject, signal?: AbortSignal): Promise<EngineAnswer> {
      const sig = signal ? AbortSignal.any([signal, closed.signal]) : closed.signal;
      sig.throwIfAborted();
      const docs = orderDocuments(subject.documents);
      if (docs.length === 0)
        return { status: 'ERROR', statusText: 'the subject has no documents', facts: [] };
      if (column.outputType === 'categorical' && !column.config?.categories?.length) {
        return reduce(
          column,
          docs.map((doc) =>
            perDocument(doc, { ok: false, statusText: 'column has no categories', failed: false }),
          ),
        );
      }
      const labelled = docs.map((doc, i) => ({ label: `D${i + 1}`, doc }));
      if (!column.isCompositional || docs.length === 1) {
        const outcomes = await Promise.all(labelled.map((d) => ask(column, [d], 'document', sig)));
        const perDoc = outcomes.map((o, i) => perDocument(docs[i]!, o));
        // A document the model could not be asked about leaves the bundle's answer unknown.
        const broken = outcomes.findIndex((o) => !o.ok && o.failed);
        if (broken >= 0) {
          const why = (outcomes[broken] as { statusText: string }).statusText;
          return {
            status: 'ERROR',
            statusText: docs.length > 1 ? `${docs[broken]!.fileName}: ${why}` : why,
            facts: perDoc.map(factOf),
          };
        }
        return reduce(column, perDoc);
      }
      // Compositional: one call over the whole subject, one retrieval budget.
      const o = await ask(column, labelled, 'subject', sig);
      if (!o.ok) {
        return {
          status: 'ERROR',
          statusText: o.statusText,
          facts: docs.map((d) => factOf(perDocument(d, o))),
        };
      }
      return {
        status: 'SUCCESS',
        value: o.value,
        citations: o.citations,
        confidence: o.confidence,
        facts: docs.map((d) => compositionalFact(d, o)),
      };
    },
    async close() {
      closed.abort(new Error('the openai engine was closed'));
    },
  };
}

function perDocument(doc: EngineDocument, o: Outcome): PerDocument {
  if (o.ok) return { doc, status: 'SUCCESS', ...o };
  return {
    doc,
    status: 'ERROR',
    statusText: o.statusText,
    value: null,
    citations: [],
    confidence: null,
    empty: true,
  };
}

/** What one document contributed to a compositional answer: its citations or regions. */
function compositionalFact(doc: EngineDocument, found: Found): Fact {
  const base = { fileId: doc.fileId, role: doc.role, effectiveAt: doc.effectiveAt, sortOrder: doc.sortOrder };
  if (Array.isArray(found.value)) {
    const regions = found.value.filter((r) => r.fileId === doc.fileId);
    return {
      ...base,
      status: 'SUCCESS',
      value: regions,
      citations: [],
      confidence: regions.length ? found.confidence : null,
    };
  }
  const citations = found.citations.filter((c) => c.fileId === doc.fileId);
  const contributed = citations.length > 0;
  return {
    ...base,
    status: 'SUCCESS',
    value: contributed ? found.value : { type: found.value.type, value: null },
    citations,
    confidence: contributed ? found.confidence : null,
  };
}

/** Turns a parsed answer into a typed value with verified citations and a confidence. */
function interpret(
  column: EngineColumn,
  docs: LabelledDocument[],
  candidates: ImageCandidate[],
  raw: RawAnswer,
): Found {
  const modelConfidence = raw.confidence ?? 0.5;
  if (column.outputType === 'image' || column.outputType === 'image_list') {
    const regions = toRegions(column, raw.value, candidates);
    return { value: regions, citations: [], confidence: round(modelConfidence), empty: regions.length === 0 };
  }
  const type = column.outputType;
  const value = coerceValue(column, raw.value);
  const empty = value === null;
  const { citations, dropped } = verifyQuotes(raw.quotes, docs);
  let confidence = modelConfidence;
  if (!empty && citations.length === 0 && !(type === 'boolean' && value === false)) {
    confidence = Math.min(confidence, UNVERIFIED_CAP);
  } else if (dropped > 0) {
    confidence *= DROPPED_QUOTE_FACTOR ** Math.min(dropped, 3);
  }
  return { value: { type, value }, citations: empty ? [] : citations, confidence: round(confidence), empty };
}

function toRegions(column: EngineColumn, value: unknown, candidates: ImageCandidate[]): Region[] {
  if (value === null || value === undefined) return [];
  if (!Array.isArray(value)) throw new InvalidAnswer('value must be a list of candidates');
  const out: Region[] = [];
  let unknown = 0;
  for (const item of value) {
    const id = typeof item === 'string' ? item : (item as { candidate?: unknown } | null)?.candidate;
    const caption = (item as { caption?: unknown } | null)?.caption;
    const c = candidates.find(
      (x) => typeof id === 'string' && x.id.toLowerCase() === id.trim().toLowerCase(),
    );
    if (!c) {
      unknown++;
      continue;
    }
    if (out.some((r) => r.fileId === c.doc.doc.fileId && r.page === c.page && r.box === c.box)) continue;
    out.push({
      fileId: c.doc.doc.fileId,
      page: c.page,
      box: c.box,
      caption: typeof caption === 'string' && caption.trim() ? caption.trim() : c.near || 'picture',
    });
  }
  if (out.length === 0 && unknown > 0)
    throw new InvalidAnswer('the answer names candidates that were not offered');
  return column.outputType === 'image' ? out.slice(0, 1) : out;
}

const round = (x: number) => Math.round(Math.min(1, Math.max(0, x)) * 1000) / 1000;
