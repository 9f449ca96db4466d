/**
 * The one error hierarchy. Routes and domain code throw these; the HTTP error handler is
 * the only place that turns them into a status code and one of the two body shapes of
 * interface.md section 7.
 */
export type ErrorCode =
  | 'bad_request'
  | 'unauthorized'
  | 'payment_required'
  | 'forbidden'
  | 'not_found'
  | 'conflict'
  | 'unprocessable'
  | 'rate_limited'
  | 'unavailable'
  | 'insufficient_storage'
  | 'internal';

const STATUS: Record<ErrorCode, number> = {
  bad_request: 400,
  unauthorized: 401,
  payment_required: 402,
  forbidden: 403,
  not_found: 404,
  conflict: 409,
  unprocessable: 422,
  rate_limited: 429,
  internal: 500,
  unavailable: 503,
  insufficient_storage: 507,
};

export interface AppErrorOptions {
  /** Rejections before the handler are plain text; the rest are JSON `{success:false,error}`. */
  plain?: boolean;
  /** Extra JSON body fields (e.g. `cost`, `balance`, `cap` on a 402). */
  extra?: Record<string, unknown>;
}

export class AppError extends Error {
  readonly code: ErrorCode;
  readonly status: number;
  readonly plain: boolean;
  readonly extra: Readonly<Record<string, unknown>>;

  constructor(code: ErrorCode, message: string, options: AppErrorOptions = {}) {
    super(message);
    this.name = 'AppError';
    this.code = code;
    this.status = STATUS[code];
    this.plain = options.plain ?? false;
    this.extra = options.extra ?? {};
  }
}

/** One sentence for every kind of bad key, so a 401 never reveals which (section 5.2). */
export const UNAUTHORIZED_MESSAGE = 'Unauthorized: a valid API key is required in the x-api-key header.';

export const errors = {
  badRequest: (message: string, extra?: Record<string, unknown>) =>
    new AppError('bad_request', message, { extra }),
  unauthorized: (message = UNAUTHORIZED_MESSAGE) => new AppError('unauthorized', message, { plain: true }),
  forbidden: () =>
    new AppError('forbidden', 'Forbidden: this key does not have the access level this route needs.', {
      plain: true,
    }),
  notFound: (what = 'Resource', plain = false) => new AppError('not_found', `${what} not found.`, { plain }),
  paymentRequired: (message: string, extra?: Record<string, unknown>, plain = false) =>
    new AppError('payment_required', message, { extra, plain }),
  conflict: (message: string) => new AppError('conflict', message),
  unprocessable: (message: string) => new AppError('unprocessable', message),
  rateLimited: () => new AppError('rate_limited', 'Too many requests: rate limit exceeded.', { plain: true }),
  unavailable: (message: string) => new AppError('unavailable', message),
  /** The disk (or quota) under DATA_DIR is full: nothing was stored, retry once space frees. */
  insufficientStorage: () => new AppError('insufficient_storage', OUT_OF_STORAGE_MESSAGE),
};

export const OUT_OF_STORAGE_MESSAGE =
  'Insufficient storage: the server ran out of storage space; nothing was stored. Retry later.';

/** errno codes of a full disk or quota. */
const STORAGE_CODES = new Set(['ENOSPC', 'EDQUOT']);
/** errno codes of a resource the machine runs short of for a while: storage, descriptors, memory. */
const TRANSIENT_CODES = new Set([...STORAGE_CODES, 'EMFILE', 'ENFILE', 'ENOMEM', 'EAGAIN', 'EBUSY']);

/**
 * The errno code (`ENOSPC`, ...) of a system error, looked for in the error, its `cause`
 * chain and the members of an AggregateError, since wrappers (streams, pipelines, the AWS
 * SDK) often carry the original underneath. null when there is none.
 */
export function systemErrorCode(err: unknown, depth = 0): string | null {
  if (!err || typeof err !== 'object' || depth > 5) return null;
  const e = err as { code?: unknown; errno?: unknown; cause?: unknown; errors?: unknown };
  if (typeof e.code === 'string' && /^E[A-Z0-9]+$/.test(e.code)) return e.code;
  for (const inner of [e.cause, ...(Array.isArray(e.errors) ? e.errors : [])]) {
    const code = systemErrorCode(inner, depth + 1);
    if (code) return code;
  }
  return null;
}

/** A full disk or quota (ENOSPC, EDQUOT) anywhere in the error. */
export function isOutOfStorage(err: unknown): boolean {
  const code = systemErrorCode(err);
  return code !== null && STORAGE_CODES.has(code);
}

/**
 * A failure that says nothing about the input and is likely gone in a while: the machine
 * ran short of storage, file descriptors or memory, or the database answered "unavailable"
 * (its disk full, out of memory, too many connections, restarting: pg-errors maps those to
 * 503). Work that failed this way is retried with backoff, never failed for good at once.
 */
export function isTransientResourceError(err: unknown): boolean {
  if (err instanceof AppError) return err.code === 'unavailable' || err.code === 'insufficient_storage';
  const code = systemErrorCode(err);
  return code !== null && TRANSIENT_CODES.has(code);
}

/** `file:` URLs, and absolute paths standing as a word of their own (not a URL's path, not `a/b`). */
const FILE_URL = /\bfile:\/\/[^\s'"`<>()[\]{},;]*/g;
const ABSOLUTE_PATH = /(^|[\s'"`(=[{<,;])\/(?![\s/])[^\s'"`<>()[\]{},;]*/g;

/**
 * Error text on its way to a client (an HTTP body, a job's statusText) without the server's
 * file system in it: absolute paths and `file:` URLs become `[path]`. Node's fs errors
 * (`ENOSPC: no space left on device, copyfile '/srv/...'`) and converter output name them.
 */
export function withoutServerPaths(text: string): string {
  return text.replace(FILE_URL, '[path]').replace(ABSOLUTE_PATH, '$1[path]');
}
