import type { Config } from '../infra/config.ts';
import { createLocalEngine } from './local/engine.ts';
import { createThreadedLocalEngine } from './local/threaded.ts';
import { createOpenAIEngine, type PageImageLoader } from './openai/engine.ts';
import type { AnswerEngine } from './types.ts';

export interface EngineDeps {
  /** Reads a page's stored image, for `OPENAI_VISION`; without it no images are sent. */
  pageImage?: PageImageLoader;
  fetch?: typeof fetch;
  /** Runs the local engine on this many worker threads (0 or absent: on the calling thread). */
  threads?: number;
}

/** The answer engine the settings choose (decisions.md D5). */
export function openEngine(config: Pick<Config, 'engine'>, deps: EngineDeps = {}): AnswerEngine {
  const e = config.engine;
  if (e.kind === 'local') {
    return deps.threads ? createThreadedLocalEngine(deps.threads, e.scorer) : createLocalEngine(e.scorer);
  }
  return createOpenAIEngine({
    baseUrl: e.baseUrl,
    apiKey: e.apiKey,
    model: e.model,
    vision: e.vision,
    timeoutMs: e.timeoutMs,
    maxRetries: e.maxRetries,
    concurrency: e.concurrency,
    pageImage: deps.pageImage,
    fetch: deps.fetch,
  });
}
