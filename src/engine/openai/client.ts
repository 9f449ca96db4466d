import { systemClock } from '../../infra/clock.ts';
import { Semaphore } from './semaphore.ts';

/**
 * A minimal client for POST {base}/chat/completions of an OpenAI-compatible server
 * (OpenAI, vLLM, Ollama, llama.cpp server): a timeout per attempt, retries with
 * exponential backoff and jitter on 429, 5xx and network errors (Retry-After honoured,
 * capped), and a limit on requests under way. The API key is sent only in the
 * Authorization header and is scrubbed from every message this module produces.
 */
export interface ChatClientOptions {
  /** e.g. https://api.openai.com/v1 (no trailing slash needed). */
  baseUrl: string;
  apiKey: string | null;
  /** Per attempt, from sending the request to reading the whole answer. */
  timeoutMs: number;
  /** Retries after the first attempt, for 429, 5xx and network errors. */
  maxRetries: number;
  /** Requests under way at once through this client. */
  concurrency: number;
  /** First backoff delay; doubles per retry, with jitter. Default 500 ms. */
  retryBaseMs?: number;
  /** Upper bound for one backoff delay and for a server's Retry-After. Default 30 s. */
  maxDelayMs?: number;
  fetch?: typeof fetch;
  /** 0 <= x < 1, for jitter; Math.random by default. */
  random?: () => number;
}

export type ContentPart =
  | { type: 'text'; text: string }
  | { type: 'image_url'; image_url: { url: string; detail?: 'auto' | 'low' | 'high' } };

export interface ChatMessage {
  role: 'system' | 'user' | 'assistant';
  content: string | ContentPart[];
}

export interface ChatRequest {
  model: string;
  messages: ChatMessage[];
  response_format?: unknown;
  temperature?: number;
  [key: string]: unknown;
}

export interface ChatResult {
  content: string;
  finishReason: string | null;
  refusal: string | null;
}

export type ModelServerErrorKind = 'timeout' | 'http' | 'network' | 'protocol';

/** The model server could not give an answer; `message` is safe to show (no key). */
export class ModelServerError extends Error {
  override name = 'ModelServerError';
  readonly kind: ModelServerErrorKind;
  readonly status: number | null;
  /** The server's own error text, scrubbed and shortened (for capability fallbacks). */
  readonly detail: string;
  constructor(kind: ModelServerErrorKind, message: string, status: number | null = null, detail = '') {
    super(message);
    this.kind = kind;
    this.status = status;
    this.detail = detail;
  }
}

export class ChatClient {
  readonly #url: string;
  readonly #apiKey: string | null;
  readonly #opts: Required<Omit<ChatClientOptions, 'apiKey' | 'baseUrl'>>;
  readonly #slots: Semaphore;

  constructor(opts: ChatClientOptions) {
    this.#url = `${opts.baseUrl.replace(/\/+$/, '')}/chat/completions`;
    this.#apiKey = opts.apiKey;
    this.#opts = {
      timeoutMs: opts.timeoutMs,
      maxRetries: opts.maxRetries,
      concurrency: opts.concurrency,
      retryBaseMs: opts.retryBaseMs ?? 500,
      maxDelayMs: opts.maxDelayMs ?? 30_000,
      fetch: opts.fetch ?? globalThis.fetch,
      random: opts.random ?? Math.random,
    };
    this.#slots = new Semaphore(opts.concurrency);
  }

  /**
   * Sends one chat-completions request, retrying what is worth retrying. Rejects with the
   * caller's abort reason when `signal` aborts, else with a ModelServerError.
   */
  async complete(request: ChatRequest, signal?: AbortSignal): Promise<ChatResult> {
    const body = JSON.stringify(request);
    const headers: Record<string, string> = {
      'content-type': 'application/json',
      accept: 'application/json',
    };
    if (this.#apiKey) headers.authorization = `Bearer ${this.#apiKey}`;
    const attempts = this.#opts.maxRetries + 1;
    let last: ModelServerError | null = null;
    let askedWait: number | null = null;
    for (let attempt = 0; attempt < attempts; attempt++) {
      if (attempt > 0) await sleep(this.#delay(attempt, askedWait), signal);
      const release = await this.#slots.acquire(signal);
      const timeout = AbortSignal.timeout(this.#opts.timeoutMs);
      const both = signal ? AbortSignal.any([signal, timeout]) : timeout;
      let status = 0;
      let retryAfterMs: number | null = null;
      let text: string;
      try {
        const res = await this.#opts.fetch(this.#url, { method: 'POST', headers, body, signal: both });
        status = res.status;
        retryAfterMs = retryAfter(res.headers);
        text = await res.text();
      } catch (err) {
        if (signal?.aborted) throw signal.reason;
        if (timeout.aborted) {
          throw new ModelServerError(
            'timeout',
            `the model server did not answer within ${this.#opts.timeoutMs} ms`,
          );
        }
        last = new ModelServerError(
          'network',
          `could not reach the model server (${this.#scrub(causeOf(err))})`,
        );
        askedWait = null;
        continue;
      } finally {
        release();
      }
      if (status >= 200 && status < 300) return this.#result(text);
      const detail = this.#scrub(errorText(text));
      const message = `the model server answered HTTP ${status}${detail ? `: ${detail}` : ''}`;
      const error = new ModelServerError('http', message, status, detail);
      if (status !== 429 && status < 500) throw error;
      last = error;
      askedWait = retryAfterMs;
    }
    const tries = `${attempts} attempt${attempts === 1 ? '' : 's'}`;
    throw new ModelServerError(
      last!.kind,
      `${last!.message} (gave up after ${tries})`,
      last!.status,
      last!.detail,
    );
  }

  #delay(attempt: number, asked: number | null): number {
    const cap = this.#opts.maxDelayMs;
    if (asked !== null) return Math.min(cap, asked);
    const exp = Math.min(cap, this.#opts.retryBaseMs * 2 ** (attempt - 1));
    // "Equal jitter": at least half the exponential delay, so retries still spread out.
    return exp / 2 + (exp / 2) * this.#opts.random();
  }

  #result(text: string): ChatResult {
    let json: unknown;
    try {
      json = JSON.parse(text);
    } catch {
      throw new ModelServerError('protocol', 'the model server sent a response that is not JSON');
    }
    const choice = (json as { choices?: unknown[] } | null)?.choices?.[0] as
      | { message?: { content?: unknown; refusal?: unknown }; finish_reason?: unknown }
      | undefined;
    if (!choice?.message) {
      throw new ModelServerError('protocol', 'the model server sent a response without choices[0].message');
    }
    const raw = choice.message.content;
    // Some servers send content as an array of parts.
    const content =
      typeof raw === 'string'
        ? raw
        : Array.isArray(raw)
          ? raw.map((p) => (typeof p?.text === 'string' ? p.text : '')).join('')
          : '';
    return {
      content,
      finishReason: typeof choice.finish_reason === 'string' ? choice.finish_reason : null,
      refusal: typeof choice.message.refusal === 'string' ? this.#scrub(choice.message.refusal) : null,
    };
  }

  /** The key must never leave through a message, even if a server or proxy echoes it. */
  #scrub(s: string): string {
    return this.#apiKey ? s.split(this.#apiKey).join('[redacted]') : s;
  }
}

/** Retry-After in seconds or as an HTTP date; OpenAI also sends retry-after-ms. */
function retryAfter(headers: Headers): number | null {
  const ms = headers.get('retry-after-ms');
  if (ms && /^\d+(\.\d+)?$/.test(ms.trim())) return Number(ms);
  const v = headers.get('retry-after')?.trim();
  if (!v) return null;
  if (/^\d+(\.\d+)?$/.test(v)) return Number(v) * 1000;
  const at = Date.parse(v);
  // The server's date is real time, so it is measured against the system clock, never a test's.
  return Number.isNaN(at) ? null : Math.max(0, at - systemClock());
}

/** The `error.message` of an OpenAI-style error body, else the start of the body. */
function errorText(text: string): string {
  let out = text;
  try {
    const j = JSON.parse(text) as { error?: { message?: unknown } | string; message?: unknown };
    const m = typeof j.error === 'string' ? j.error : (j.error?.message ?? j.message);
    if (typeof m === 'string') out = m;
  } catch {
    // not JSON: keep the text
  }
  out = out.replace(/\s+/g, ' ').trim();
  return out.length > 300 ? `${out.slice(0, 300)}...` : out;
}

function causeOf(err: unknown): string {
  const cause = (err as { cause?: { code?: unknown; message?: unknown } } | null)?.cause;
  if (typeof cause?.code === 'string') return cause.code;
  if (typeof cause?.message === 'string') return cause.message;
  return err instanceof Error ? err.message : String(err);
}

function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  signal?.throwIfAborted();
  return new Promise((resolve, reject) => {
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal!.reason);
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}
