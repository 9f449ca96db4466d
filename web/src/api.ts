// The public API, as the app uses it. The key travels only in the x-api-key header; it is
// never put in a URL, and nothing here logs requests.

export type Status = 'NOT_STARTED' | 'IN_QUEUE' | 'IN_PROGRESS' | 'SUCCESS' | 'ERROR' | 'CANCELED';
export type Box = [number, number, number, number];
export type OutputType =
  | 'text_quote'
  | 'number'
  | 'date'
  | 'boolean'
  | 'categorical'
  | 'list_scalar'
  | 'image'
  | 'image_list';
export const OUTPUT_TYPES: OutputType[] = [
  'text_quote',
  'number',
  'date',
  'boolean',
  'categorical',
  'list_scalar',
  'image',
  'image_list',
];

export interface Share {
  url: string;
  token: string;
  expiresAt: number | null;
}
export interface Me {
  keyId: string;
  workspaceId: string;
  level: 'read' | 'read_write';
}
export interface Workspace {
  id: string;
  name: string;
  tier: string;
  balance: number;
  spendCap: number | null;
  monthSpend: number;
}
export interface FileRec {
  id: string;
  fileName: string;
  fileExt: string;
  mimeType: string;
  fileSize: number;
  itemCount: number;
  type: string;
  createdAt: number;
  expiresAt: number | null;
  share: Share;
}
export interface FileItem {
  id: string;
  fileId?: string;
  datasetId?: string;
  row: 'pdf' | 'jpg' | 'embedding_image';
  col: number;
  createdAt: number;
  share: Share;
  score?: number;
}
export interface Job {
  id: string;
  fileId: string;
  type: string;
  status: Status;
  statusText: string | null;
}
export interface Table {
  id: string;
  name: string;
  standing: boolean;
  color: string | null;
  locale: string | null;
  archivedAt: number | null;
  createdAt: number;
  updatedAt: number;
}
export interface Column {
  id: string;
  tableId: string;
  name: string;
  prompt: string;
  outputType: OutputType;
  config: string | null;
  isCompositional: boolean;
  creditRate: number;
  sortOrder: number;
  version: number;
  archivedAt: number | null;
}
export interface Row {
  id: string;
  subjectType: 'file' | 'bundle';
  subjectId: string;
  sortOrder: number;
  archivedAt: number | null;
}
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
export interface Cell {
  id: string;
  rowId: string;
  columnId: string;
  status: Status;
  statusText: string | null;
  blockReason: string | null;
  value: Typed | Region[] | null;
  citations: Citation[];
  confidence: number | null;
  humanOverride: Typed | null;
  stale: boolean;
  updatedAt: number;
}
export interface TableBody {
  table: Table;
  columns: Column[];
  rows: Row[];
  cells: Cell[];
}
export interface Run {
  id: string;
  tableId: string;
  status: Status;
  triggeredBy: string;
  totalCells: number;
  pendingCells: number;
  startedAt: number | null;
  finishedAt: number | null;
  createdAt: number;
}
export interface Preview {
  cost: number;
  cells: number;
  skippedRowIds: string[];
}
export interface CellEvent {
  id: string;
  type: string;
  data: string;
  actorId: string;
  createdAt: number;
}
export interface CellFact {
  id: string;
  fileId: string;
  role: string | null;
  effectiveAt: number | null;
  status: string;
  value: string | null;
  citations: string | null;
  confidence: number | null;
}
export interface Bundle {
  id: string;
  name: string;
  color: string | null;
  documentsVersion: number;
  archivedAt: number | null;
}
export interface Member {
  fileId: string;
  isPrimary: boolean;
  role: string | null;
  effectiveAt: number | null;
  sortOrder: number;
}

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
  constructor(key: string, workspaceId: string) {
    this.key = key;
    this.ws = workspaceId;
  }

  static async me(key: string): Promise<Me> {
    return (await raw<{ data: Me }>(key, 'GET', '/v2/me')).data;
  }

  /** JSON call on the workspace, returning the envelope's `data`. */
  async call<T>(method: string, path: string, body?: unknown): Promise<T> {
    return (await raw<{ data: T }>(this.key, method, `/v2/workspaces/${this.ws}${path}`, body)).data;
  }
  /** The whole envelope (lists with `total`). */
  async envelope<T>(method: string, path: string, body?: unknown): Promise<{ data: T; total: number }> {
    return raw<{ data: T; total: number }>(this.key, method, `/v2/workspaces/${this.ws}${path}`, body);
  }
  async post<T>(absolutePath: string, body: unknown): Promise<T> {
    return (await raw<{ data: T }>(this.key, 'POST', absolutePath, body)).data;
  }

  workspace = () => this.call<Workspace>('GET', '');

  async allFiles(): Promise<FileRec[]> {
    const out: FileRec[] = [];
    for (let offset = 0; ; offset += 100) {
      const page = await this.envelope<FileRec[]>('GET', `/files?limit=100&offset=${offset}&sort=-createdAt`);
      out.push(...page.data);
      if (page.data.length < 100 || out.length >= page.total) return out;
    }
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

async function raw<T>(key: string, method: string, path: string, body?: unknown): Promise<T> {
  let res: Response;
  try {
    res = await fetch(path, {
      method,
      headers: {
        'x-api-key': key,
        ...(body !== undefined ? { 'content-type': 'application/json' } : {}),
      },
      body: body !== undefined ? JSON.stringify(body) : undefined,
      cache: 'no-store',
    });
  } catch {
    throw new ApiError(0, '');
  }
  const text = await res.text();
  if (!res.ok) {
    const e = errorFrom(res.status, res.headers.get('content-type'), text);
    if (res.status === 401) unauthorized?.(e);
    throw e;
  }
  return (text ? JSON.parse(text) : {}) as T;
}
