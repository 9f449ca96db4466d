import { type LoggerOptions, stdSerializers } from 'pino';
import type { LogLevel } from './config.ts';
import { reportSlowQueries } from './db/named-query.ts';

const REDACTED = '[redacted]';

/**
 * Names of query parameters whose values are credentials (share tokens, keys, passwords,
 * signatures), matched on the decoded name with case and punctuation dropped, so
 * `X-Api-Key`, `api_key`, `apikey` and `%74oken` all count (issue 15 F7).
 */
const SECRET_NAME = /key|token|secret|passw|pwd|auth|signature|^sig$|credential/;

/** A `name=` after `?`, `&` or `;`. */
const PARAM_NAME = /[?&;]([^=?&;#\s"'<>]*)=/g;
/** In a URL a value runs to the next separator; quoted in a message, also to a quote or space. */
const URL_VALUE_END = /[&;]/g;
const TEXT_VALUE_END = /[&;\s"'<>]/g;
const PERCENT = /%([0-9a-fA-F]{2})/g;

/**
 * The name as any decoder could read it: `+` as space, percent-escapes undone repeatedly
 * (double encoding) byte by byte, so malformed escapes never throw.
 */
function normalizedName(raw: string): string {
  let name = raw.replace(/\+/g, ' ');
  for (let round = 0; round < 5 && name.includes('%'); round++) {
    const next = name.replace(PERCENT, (_, hex: string) => String.fromCharCode(Number.parseInt(hex, 16)));
    if (next === name) break;
    name = next;
  }
  return name.toLowerCase().replace(/[^a-z0-9]/g, '');
}

export function isSecretParamName(raw: string): boolean {
  return SECRET_NAME.test(normalizedName(raw));
}

/**
 * Replaces the value of every secret-named query parameter of a URL with `[redacted]`.
 * The value runs to the next `&` or `;`, a `?` inside it included, so no part survives.
 */
export function redactUrl(url: string): string {
  return redactParams(url, URL_VALUE_END);
}

/** The same for any text that may quote a URL: a log message, an error's message or stack. */
export function redactText(text: string): string {
  return redactParams(text, TEXT_VALUE_END);
}

function redactParams(text: string, valueEnd: RegExp): string {
  if (!text.includes('=')) return text;
  let out = '';
  let from = 0;
  PARAM_NAME.lastIndex = 0;
  for (let m = PARAM_NAME.exec(text); m !== null; m = PARAM_NAME.exec(text)) {
    if (!isSecretParamName(m[1])) continue;
    const valueStart = m.index + m[0].length;
    valueEnd.lastIndex = valueStart;
    const end = valueEnd.exec(text)?.index ?? text.length;
    out += text.slice(from, valueStart) + REDACTED;
    from = end;
    PARAM_NAME.lastIndex = end;
  }
  return out + text.slice(from);
}

/** Errors may quote the URL (Fastify's "reply already sent" does) or carry raw request bytes. */
function serializeError(err: Error): Record<string, unknown> {
  const out = stdSerializers.err(err) as unknown as Record<string, unknown>;
  delete out.rawPacket;
  for (const [name, value] of Object.entries(out)) {
    if (typeof value === 'string') out[name] = redactText(value);
  }
  return out;
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
      censor: REDACTED,
    },
    serializers: {
      req: (req: { method: string; url: string; id: string }) => ({
        method: req.method,
        url: redactUrl(req.url),
      }),
      err: serializeError,
    },
    hooks: {
      // Messages are plain strings no serializer sees (Fastify's "Route GET:/x?... not found").
      logMethod(args, method) {
        // `log.warn({ err })` with no message takes the error's own message, unserialized.
        const [first] = args;
        if (args.length === 1 && typeof first === 'object' && first !== null) {
          const err = first instanceof Error ? first : (first as { err?: unknown }).err;
          if (err instanceof Error) (args as unknown[]).push(err.message);
        }
        for (let i = 0; i < args.length; i++) {
          if (typeof args[i] === 'string') (args as unknown[])[i] = redactText(args[i] as string);
        }
        method.apply(this, args);
      },
    },
  };
}

/** Slow queries are logged by name and duration only: parameters may hold user data. */
export function logSlowQueries(thresholdMs: number, log: { warn(obj: object, msg: string): void }): void {
  if (thresholdMs <= 0) return;
  reportSlowQueries(thresholdMs, (query, ms) => log.warn({ query, ms: Math.round(ms) }, 'slow query'));
}
