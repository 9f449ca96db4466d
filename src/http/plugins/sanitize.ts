import { errors } from '../../domain/errors.ts';
import type { App } from '../context.ts';

/**
 * Text PostgreSQL cannot store (NUL) or that is not text at all (an unpaired UTF-16
 * surrogate, which no encoding can write). Checked at the edge, so the answer names the
 * field instead of surfacing as a database error.
 */
const UNPAIRED_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

export function unstorableText(value: string): boolean {
  return value.includes('\u0000') || UNPAIRED_SURROGATE.test(value);
}

/** 400 naming the field when a client's text cannot be stored. */
export function assertStorableText(where: string, value: string): void {
  if (unstorableText(value)) {
    throw errors.badRequest(
      `${where} contains a character that cannot be stored (a NUL or an unpaired surrogate).`,
    );
  }
}

/** The first field (as `body.a.b[2]`) holding unstorable text, in keys or values. */
function findUnstorable(value: unknown, where: string, depth = 0): string | null {
  if (typeof value === 'string') return unstorableText(value) ? where : null;
  if (depth > 32 || value === null || typeof value !== 'object') return null;
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) {
      const hit = findUnstorable(value[i], `${where}[${i}]`, depth + 1);
      if (hit) return hit;
    }
    return null;
  }
  for (const [k, v] of Object.entries(value)) {
    if (unstorableText(k)) return `${where} (a key)`;
    const hit = findUnstorable(v, `${where}.${k}`, depth + 1);
    if (hit) return hit;
  }
  return null;
}

type JsonSchema = Record<string, unknown>;

/**
 * Every integer a route accepts fits both an int8 column and a JS number without losing
 * digits, and every other number is finite: a bound a schema leaves out is added here, once
 * per schema object, so validation answers 400 (and the OpenAPI document shows the bound).
 */
function boundNumbers(schema: unknown, seen = new Set<unknown>()): void {
  if (schema === null || typeof schema !== 'object' || seen.has(schema)) return;
  seen.add(schema);
  const s = schema as JsonSchema;
  const types = Array.isArray(s.type) ? s.type : [s.type];
  if (types.includes('integer') || types.includes('number')) {
    if (s.maximum === undefined && s.exclusiveMaximum === undefined) s.maximum = Number.MAX_SAFE_INTEGER;
    if (s.minimum === undefined && s.exclusiveMinimum === undefined) s.minimum = -Number.MAX_SAFE_INTEGER;
  }
  for (const value of Object.values(s)) {
    if (Array.isArray(value)) for (const v of value) boundNumbers(v, seen);
    else if (value && typeof value === 'object') boundNumbers(value, seen);
  }
}

/**
 * One input sanitiser at the HTTP edge (issue 15 item 3), registered before auth and the
 * OpenAPI plugin: path params and query values are checked before anything reads them (auth
 * looks tables up by id), JSON bodies once parsed, and number schemas get their bounds.
 */
export function registerInputSanitiser(app: App): void {
  app.addHook('onRoute', (route) => {
    const schema = route.schema as Record<string, unknown> | undefined;
    if (!schema) return;
    for (const part of ['body', 'querystring', 'params']) boundNumbers(schema[part]);
  });

  app.addHook('onRequest', async (request) => {
    const hit =
      findUnstorable(request.params ?? {}, 'params') ?? findUnstorable(request.query ?? {}, 'querystring');
    if (hit)
      throw errors.badRequest(
        `${hit} contains a character that cannot be stored (a NUL or an unpaired surrogate).`,
      );
  });

  app.addHook('preValidation', async (request) => {
    if (request.body === undefined || request.isMultipart()) return;
    const hit = findUnstorable(request.body, 'body');
    if (hit)
      throw errors.badRequest(
        `${hit} contains a character that cannot be stored (a NUL or an unpaired surrogate).`,
      );
  });
}
