// The public API, as the app uses it, through @folio/client (packages/client, issue 16): its
// typed fetch carries every JSON call, its paged iterator lists the files. Uploads stay on
// XMLHttpRequest, the only browser API that reports upload progress. The key travels only in
// the x-api-key header; it is never put in a URL, and nothing here logs requests.

import type { paths } from '../../packages/client/src/api-types.ts';
import { FolioClient, FolioError } from '../../packages/client/src/index.ts';

// The shapes below come from packages/client/src/api-types.ts (one generated file for the
// client package and the app), generated from the service's /openapi.json by
// `npm run api-types` (issue 14): a route schema change the app has not caught up with fails the
// build. Where a schema leaves a field open (a status that is a bare string, a cell value that
// is `unknown`), `Narrow` states what the API documents in prose, and only ever narrows the
// generated field, so a renamed or retyped field still fails the typecheck.

/** The `data` of an operation's JSON 200 response. */
type Data<P extends keyof paths, M extends keyof paths[P]> = paths[P][M] extends {
  responses: { 200: { content: { 'application/json': { data: infer D } } } };
}
  ? D
  : { error: `${P} ${M & string} has no JSON data in its 200 response` };
/** The same, for a route under /v2/workspaces/{workspaceId}. */
type WsData<P extends string, M extends keyof paths[`/v2/workspaces/{workspaceId}${P}` & keyof paths]> = Data<
  `/v2/workspaces/{workspaceId}${P}` & keyof paths,
  M
>;
type Simplify<T> = { [K in keyof T]: T[K] } & {};
/** `T` with the fields of `N` narrowed; each must be a field of `T` and fit its generated type. */
type Narrow<T, N extends { [K in keyof N]: K extends keyof T ? T[K] : never }> = Simplify<
  Omit<T, keyof N> & N
>;

/** Job, run and cell statuses (interface.md 3; the schema types them as plain strings). */
export type Status = 'NOT_STARTED' | 'IN_QUEUE' | 'IN_PROGRESS' | 'SUCCESS' | 'ERROR' | 'CANCELED';
export type Box = [number, number, number, number];
export type OutputType = NonNullable<
  NonNullable<
    paths['/v2/workspaces/{workspaceId}/tables/{tableId}/columns']['post']['requestBody']
  >['content']['application/json']['outputType']
>;
/** Every output type, in the order the app offers them; the compiler checks none is missing. */
export const OUTPUT_TYPES = Object.keys({
  text_quote: 0,
  number: 0,
  date: 0,
  boolean: 0,
  categorical: 0,
  list_scalar: 0,
  image: 0,
  image_list: 0,
} satisfies Record<OutputType, 0>) as OutputType[];

export type Share = WsData<'/share/{fileItemId}', 'post'>;
export type Me = Data<'/v2/me', 'get'>;
export type Workspace = WsData<'', 'get'>;
export type FileRec = WsData<'/files', 'get'>[number];
type PageItem = WsData<'/files/{fileId}/items', 'get'>[number];
type SearchHit = Data<'/v1/search', 'post'>[number];
/** A page item of a file, or a search hit (which names its `datasetId` and carries a `score`). */
export type FileItem = Narrow<
  Omit<PageItem, 'fileId'> & Partial<Pick<PageItem, 'fileId'> & Pick<SearchHit, 'datasetId' | 'score'>>,
  { row: 'pdf' | 'jpg' | 'embedding_image' }
>;
export type Job = Narrow<WsData<'/jobs/{jobId}', 'get'>, { status: Status }>;
export type Table = WsData<'/tables', 'get'>[number];
type Body = WsData<'/tables/{tableId}', 'get'>;
export type Column = Narrow<Body['columns'][number], { outputType: OutputType }>;
export type Row = Narrow<
  Body['rows'][number],
  {
    subjectType: NonNullable<
      paths['/v2/workspaces/{workspaceId}/tables/{tableId}/rows']['post']['requestBody']
    >['content']['application/json']['subjectType'];
  }
>;
// A cell's value and citations are open (`unknown`) in the schema; these are interface.md 2.4's shapes.
export interface Citation {
  fileId: string;
  page: number;
  quote: string;
  box?: Box | null;
}
export interface Region {
  fileId: string;
  page: number;
  box: Box | null;
  caption: string;
}
export type Scalar = string | number | boolean | string[] | null;
export interface Typed {
  type: string;
  value: Scalar;
}
export type Cell = Narrow<
  Body['cells'][number],
  { status: Status; value: Typed | Region[] | null; citations: Citation[]; humanOverride: Typed | null }
>;
export type TableBody = Narrow<Body, { columns: Column[]; rows: Row[]; cells: Cell[] }>;
export type Run = Narrow<WsData<'/tables/{tableId}/runs/{runId}', 'get'>, { status: Status }>;
export type Preview = WsData<'/tables/{tableId}/runs/preview', 'get'>;
export type CellEvent = WsData<'/tables/{tableId}/cells/{cellId}/events', 'get'>[number];
export type CellFact = WsData<'/tables/{tableId}/cells/{cellId}/facts', 'get'>[number];
export type Bundle = WsData<'/bundles', 'get'>[number];
export type Member = WsData<'/bundles/{bundleId}', 'get'>['files'][number];

/** An API refusal in plain words; `status` 0 means the service could not be reached. */
export class ApiError extends Error {
  readonly status: number;
  readonly detail: string;
  constructor(status: number, detail: string) {
    super(plainWords(status, detail));
    this.status = status;
    this.detail = detail;
  }
}

/** What a status means to a person, followed by the service's own sentence. */
export function plainWords(status: number, detail: string): string {
  const lead: Record<number, string> = {
    0: 'The service could not be reached. Check that it is running, then try again.',
    400: 'The request was not accepted.',
    401: 'Your API key was not accepted: it is missing, unknown, revoked or expired.',
    402: 'Not enough credits for this, or the monthly spend cap is reached.',
    403: 'This key can only read. This action needs a Read & write key.',
    404: 'Not found: it does not exist, was deleted, or this key cannot reach it.',
    409: 'That has already finished.',
    413: 'The file is too large for this plan.',
    415: 'That kind of file or request is not supported.',
    429: 'Too many requests in the last minute. Wait a moment and try again.',
    500: 'The service had an internal problem. Reading again is safe; check before repeating a change.',
    503: 'The service is temporarily unable to do this. Trying again is safe.',
  };
  const head = lead[status] ?? `The service answered with status ${status}.`;
  const body = detail.trim();
  return body && !head.includes(body) ? `${head} ${body}` : head;
}

/** Reads either error shape: plain text (before the handler) or JSON {success:false, error}. */
export function errorFrom(status: number, contentType: string | null, text: string): ApiError {
  let detail = text;
  if ((contentType ?? '').includes('json')) {
    try {
      const body = JSON.parse(text) as {
        error?: unknown;
        message?: unknown;
        cost?: unknown;
        balance?: unknown;
      };
      detail =
        typeof body.error === 'string' ? body.error : typeof body.message === 'string' ? body.message : '';
      if (status === 402 && typeof body.cost === 'number' && typeof body.balance === 'number') {
        detail += ` (estimated cost ${body.cost} credits, balance ${body.balance})`;
      }
    } catch {
      // Not JSON after all: keep the text.
    }
  }
  return new ApiError(status, detail.length > 400 ? `${detail.slice(0, 400)}…` : detail);
}

/** A share URL made relative, so page images always come from the origin serving the app. */
export function sameOrigin(url: string): string {
  try {
    const u = new URL(url, window.location.href);
    return `${u.pathname}${u.search}`;
  } catch {
    return url;
  }
}

export class Api {
  readonly key: string;
  readonly ws: string;
  /** The client underneath, on the origin serving the app. */
  readonly client: FolioClient;
  constructor(key: string, workspaceId: string) {
    this.key = key;
    this.ws = workspaceId;
    this.client = new FolioClient({ baseUrl: '', apiKey: key, workspaceId });
  }

  static async me(key: string): Promise<Me> {
    return guarded(() => new FolioClient({ baseUrl: '', apiKey: key }).me());
  }

  /** JSON call on the workspace, returning the envelope's `data`. */
  async call<T>(method: string, path: string, body?: unknown): Promise<T> {
    return (await raw<{ data: T }>(this.client, method, `/v2/workspaces/${this.ws}${path}`, body)).data;
  }
  /** The whole envelope (lists with `total`). */
  async envelope<T>(method: string, path: string, body?: unknown): Promise<{ data: T; total: number }> {
    return raw<{ data: T; total: number }>(this.client, method, `/v2/workspaces/${this.ws}${path}`, body);
  }
  async post<T>(absolutePath: string, body: unknown): Promise<T> {
    return (await raw<{ data: T }>(this.client, 'POST', absolutePath, body)).data;
  }

  workspace = () => this.call<Workspace>('GET', '');

  /** Every file, newest first, through the client's paged iterator. */
  allFiles(): Promise<FileRec[]> {
    return guarded(async () => {
      const out: FileRec[] = [];
      for await (const f of this.client.files({ sort: '-createdAt' })) out.push(f);
      return out;
    });
  }

  /** The page image of one page, with a freshly minted share link. */
  async pageImage(fileId: string, page: number): Promise<string> {
    const items = await this.call<FileItem[]>(
      'GET',
      `/files/${encodeURIComponent(fileId)}/items?row=jpg&cols=${page}`,
    );
    const item = items.find((i) => i.col === page) ?? items[0];
    if (!item) throw new ApiError(404, `Page ${page} has no image.`);
    const share = await this.call<Share>('POST', `/share/${item.id}`, { expiresIn: 3600 });
    return sameOrigin(share.url);
  }

  /**
   * Uploads one file as multipart with XMLHttpRequest, the only browser API that reports
   * upload progress; `onProgress` gets 0-1. Resolves to the ingest job.
   */
  upload(file: File, onProgress: (fraction: number) => void): { done: Promise<Job>; abort: () => void } {
    const xhr = new XMLHttpRequest();
    const done = new Promise<Job>((resolve, reject) => {
      xhr.open('POST', `/v2/workspaces/${this.ws}/files`);
      xhr.setRequestHeader('x-api-key', this.key);
      xhr.upload.onprogress = (e) => {
        if (e.lengthComputable) onProgress(e.loaded / e.total);
      };
      xhr.onload = () => {
        if (xhr.status === 200) {
          onProgress(1);
          resolve((JSON.parse(xhr.responseText) as { data: Job }).data);
        } else {
          reject(errorFrom(xhr.status, xhr.getResponseHeader('content-type'), xhr.responseText));
        }
      };
      xhr.onerror = () => reject(new ApiError(0, ''));
      xhr.onabort = () => reject(new ApiError(0, 'The upload was stopped.'));
      const form = new FormData();
      form.append('file', file, file.name);
      xhr.send(form);
    });
    return { done, abort: () => xhr.abort() };
  }
}

let unauthorized: ((e: ApiError) => void) | null = null;
/** Called when the service stops accepting the key (revoked or expired while the app is open). */
export function onUnauthorized(fn: ((e: ApiError) => void) | null): void {
  unauthorized = fn;
}

/** A refusal or a lost connection as an ApiError in plain words; a 401 tells the app the key is gone. */
function apiError(e: unknown): ApiError {
  if (!(e instanceof FolioError)) return new ApiError(0, '');
  let detail = e.error;
  const body = e.body as { cost?: unknown; balance?: unknown } | null;
  if (e.status === 402 && typeof body?.cost === 'number' && typeof body.balance === 'number') {
    detail += ` (estimated cost ${body.cost} credits, balance ${body.balance})`;
  }
  const err = new ApiError(e.status, detail.length > 400 ? `${detail.slice(0, 400)}…` : detail);
  if (e.status === 401) unauthorized?.(err);
  return err;
}

async function guarded<T>(fn: () => Promise<T>): Promise<T> {
  try {
    return await fn();
  } catch (e) {
    throw apiError(e);
  }
}

function raw<T>(client: FolioClient, method: string, path: string, body?: unknown): Promise<T> {
  return guarded(async () => {
    const res = await client.request(method, path, {
      headers: body !== undefined ? { 'content-type': 'application/json' } : undefined,
      body: body !== undefined ? JSON.stringify(body) : undefined,
      cache: 'no-store',
    });
    const text = await res.text();
    return (text ? JSON.parse(text) : {}) as T;
  });
}
