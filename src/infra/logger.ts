import type { LoggerOptions } from 'pino';
import type { LogLevel } from './config.ts';
import { reportSlowQueries } from './db/named-query.ts';

/** Query parameters whose values are credentials (share tokens) and must never reach a log. */
const SECRET_PARAMS = /([?&](?:token|key|secret)=)[^&#]*/gi;

export function redactUrl(url: string): string {
  return url.replace(SECRET_PARAMS, '$1[redacted]');
}

export function loggerOptions(level: LogLevel): LoggerOptions {
  return {
    level,
    redact: {
      paths: [
        'req.headers["x-api-key"]',
        'req.headers["x-admin-token"]',
        'req.headers.authorization',
        'req.headers.cookie',
        '*.key',
        '*.token',
        '*.shareSecret',
        '*.adminToken',
      ],
      censor: '[redacted]',
    },
    serializers: {
      req: (req: { method: string; url: string; id: string }) => ({
        method: req.method,
        url: redactUrl(req.url),
      }),
    },
  };
}

/** Slow queries are logged by name and duration only: parameters may hold user data. */
export function logSlowQueries(thresholdMs: number, log: { warn(obj: object, msg: string): void }): void {
  if (thresholdMs <= 0) return;
  reportSlowQueries(thresholdMs, (query, ms) => log.warn({ query, ms: Math.round(ms) }, 'slow query'));
}
