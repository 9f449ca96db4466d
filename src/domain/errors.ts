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
  | 'rate_limited'
  | 'unavailable'
  | 'internal';

const STATUS: Record<ErrorCode, number> = {
  bad_request: 400,
  unauthorized: 401,
  payment_required: 402,
  forbidden: 403,
  not_found: 404,
  conflict: 409,
  rate_limited: 429,
  internal: 500,
  unavailable: 503,
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
  rateLimited: () => new AppError('rate_limited', 'Too many requests: rate limit exceeded.', { plain: true }),
  unavailable: (message: string) => new AppError('unavailable', message),
};
