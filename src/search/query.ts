import { createHash } from 'node:crypto';
import { errors } from '../domain/errors.ts';

/** The body of POST /v1/search (interface.md 4.9) as the route's schema admits it. */
export interface SearchBody {
  query: string | { text?: string; image_url?: string };
  datasetIds?: string[];
  limit?: number;
}

export interface SearchQuery {
  text: string | null;
  imageUrl: string | null;
  datasetIds: string[] | null;
  limit: number;
  /** Names the request for idempotent retries: equal bodies give equal hashes. */
  hash: string;
}

export const DEFAULT_LIMIT = 10;
export const MAX_LIMIT = 100;

/** Checks what the schema cannot say: some query to run, a limit clamped to 1-100. */
export function parseSearchBody(body: SearchBody): SearchQuery {
  const q = typeof body.query === 'string' ? { text: body.query } : body.query;
  const text = q.text?.trim() ? q.text.trim() : null;
  const imageUrl = q.image_url?.trim() ? q.image_url.trim() : null;
  if (text === null && imageUrl === null) {
    throw errors.badRequest('query must be a non-empty string, or an object with text and/or image_url.');
  }
  const raw = body.limit ?? DEFAULT_LIMIT;
  const limit = Number.isFinite(raw) ? Math.min(MAX_LIMIT, Math.max(1, Math.floor(raw))) : DEFAULT_LIMIT;
  const datasetIds = body.datasetIds ? [...new Set(body.datasetIds)] : null;
  const hash = createHash('sha256')
    .update(JSON.stringify({ text, imageUrl, datasetIds: datasetIds ? [...datasetIds].sort() : null, limit }))
    .digest('hex');
  return { text, imageUrl, datasetIds, limit, hash };
}
