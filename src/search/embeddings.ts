import type { EmbeddingsConfig } from '../infra/config.ts';

/**
 * A small client for POST {base}/embeddings of an OpenAI-compatible server. Text inputs
 * are strings; image inputs are `{image: <data URL>}` objects (the Jina/Infinity style; the
 * OpenAI API has no image embeddings, so image support is opt-in by setting). Vectors come
 * back unit length so cosine similarity is a plain dot product. The key is sent only in
 * the Authorization header and scrubbed from every error message.
 */
export type EmbeddingInput = string | { image: string };

export class EmbeddingsError extends Error {
  override name = 'EmbeddingsError';
}

export interface EmbeddingsClientOptions {
  timeoutMs?: number;
  maxRetries?: number;
  /** Inputs per request. */
  batch?: number;
  fetch?: typeof fetch;
}

export class EmbeddingsClient {
  readonly model: string;
  readonly images: boolean;
  readonly #url: string;
  readonly #apiKey: string | null;
  readonly #timeoutMs: number;
  readonly #maxRetries: number;
  readonly #batch: number;
  readonly #fetch: typeof fetch;

  constructor(config: EmbeddingsConfig, opts: EmbeddingsClientOptions = {}) {
    this.model = config.model;
    this.images = config.images;
    this.#url = `${config.baseUrl.replace(/\/+$/, '')}/embeddings`;
    this.#apiKey = config.apiKey;
    this.#timeoutMs = opts.timeoutMs ?? 60_000;
    this.#maxRetries = opts.maxRetries ?? 3;
    this.#batch = opts.batch ?? 32;
    this.#fetch = opts.fetch ?? globalThis.fetch;
  }

  /** One unit vector per input, in order. */
  async embed(inputs: readonly EmbeddingInput[], signal?: AbortSignal): Promise<Float32Array[]> {
    const out: Float32Array[] = [];
    for (let i = 0; i < inputs.length; i += this.#batch) {
      out.push(...(await this.#request(inputs.slice(i, i + this.#batch), signal)));
    }
    return out;
  }

  async #request(input: readonly EmbeddingInput[], signal?: AbortSignal): Promise<Float32Array[]> {
    const headers: Record<string, string> = {
      'content-type': 'application/json',
      accept: 'application/json',
    };
    if (this.#apiKey) headers.authorization = `Bearer ${this.#apiKey}`;
    const body = JSON.stringify({ model: this.model, input, encoding_format: 'float' });
    let last = 'no attempt';
    for (let attempt = 0; attempt <= this.#maxRetries; attempt++) {
      if (attempt > 0) await sleep(Math.min(8_000, 250 * 2 ** attempt), signal);
      const timeout = AbortSignal.timeout(this.#timeoutMs);
      const both = signal ? AbortSignal.any([signal, timeout]) : timeout;
      let status: number;
      let text: string;
      try {
        const res = await this.#fetch(this.#url, { method: 'POST', headers, body, signal: both });
        status = res.status;
        text = await res.text();
      } catch (err) {
        if (signal?.aborted) throw signal.reason;
        last = timeout.aborted ? `no answer within ${this.#timeoutMs} ms` : (err as Error).message;
        continue;
      }
      if (status >= 200 && status < 300) return parse(text, input.length);
      last = `HTTP ${status}: ${text.replace(/\s+/g, ' ').slice(0, 200)}`;
      // Only overload and server faults are worth another try; a 4xx will not change.
      if (status !== 429 && status < 500) break;
    }
    throw new EmbeddingsError(this.#scrub(`the embeddings server failed (${last})`));
  }

  #scrub(s: string): string {
    return this.#apiKey ? s.split(this.#apiKey).join('[redacted]') : s;
  }
}

function parse(text: string, expected: number): Float32Array[] {
  let json: { data?: { embedding?: unknown; index?: unknown }[] };
  try {
    json = JSON.parse(text);
  } catch {
    throw new EmbeddingsError('the embeddings server sent a response that is not JSON');
  }
  const data = json?.data;
  if (!Array.isArray(data) || data.length !== expected) {
    throw new EmbeddingsError(
      `the embeddings server sent ${data?.length ?? 0} vectors for ${expected} inputs`,
    );
  }
  // Servers may answer out of order; `index` says which input each vector belongs to.
  const sorted = [...data].sort((a, b) => Number(a.index ?? 0) - Number(b.index ?? 0));
  return sorted.map((d) => {
    const v = d.embedding;
    if (!Array.isArray(v) || v.length === 0 || !v.every((x) => typeof x === 'number' && Number.isFinite(x))) {
      throw new EmbeddingsError('the embeddings server sent an embedding that is not a list of numbers');
    }
    return normalize(Float32Array.from(v as number[]));
  });
}

export function normalize(v: Float32Array): Float32Array {
  let sum = 0;
  for (const x of v) sum += x * x;
  const norm = Math.sqrt(sum) || 1;
  for (let i = 0; i < v.length; i++) v[i] /= norm;
  return v;
}

function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  signal?.throwIfAborted();
  return new Promise((resolve, reject) => {
    const timer = setTimeout(resolve, ms);
    signal?.addEventListener(
      'abort',
      () => {
        clearTimeout(timer);
        reject(signal.reason);
      },
      { once: true },
    );
  });
}
