import { createHash } from 'node:crypto';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { errors } from '../../domain/errors.ts';
import { repos } from '../../infra/repos/index.ts';
import type { App, AppContext } from '../context.ts';
import { Type } from '../schema.ts';
import { unstorableText } from './sanitize.ts';

/** How long an answer is kept for a repeat (issue 17: "within 24 hours"). */
export const IDEMPOTENCY_TTL_MS = 24 * 60 * 60 * 1000;
const HEADER = 'idempotency-key';

/** Object keys in a stable order, so `{a,b}` and `{b,a}` are the same request. */
function canonical(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(canonical);
  if (value && typeof value === 'object') {
    return Object.fromEntries(
      Object.keys(value)
        .sort()
        .map((k) => [k, canonical((value as Record<string, unknown>)[k])]),
    );
  }
  return value;
}

/**
 * What "the same request" means: method, route, path params and the body as validated. An
 * upload's body is a stream not yet read when the key is checked; its declared length and
 * type (without the boundary, which clients draw at random) stand in for it.
 */
function fingerprint(request: FastifyRequest): string {
  const body = request.isMultipart()
    ? {
        multipart: String(request.headers['content-type'] ?? '').split(';')[0],
        length: request.headers['content-length'] ?? null,
      }
    : (request.body ?? null);
  return createHash('sha256')
    .update(
      JSON.stringify([request.method, request.routeOptions.url, canonical(request.params), canonical(body)]),
    )
    .digest('hex');
}

function replay(
  reply: FastifyReply,
  row: { status: number | null; content_type: string | null; body: string | null },
) {
  if (!reply.request.raw.complete) reply.header('connection', 'close');
  reply.code(row.status ?? 200).header('idempotent-replayed', 'true');
  if (row.content_type) reply.header('content-type', row.content_type);
  return reply.send(row.body ?? '');
}

/**
 * `Idempotency-Key` on the routes that declare `config.idempotent` (issue 17 item 2), scoped
 * per API key. The key is claimed after authentication and validation, before the handler:
 * - a new key runs the request and files its answer (2xx and 4xx; a 5xx gives the key back,
 *   so a retry runs again);
 * - the same key and request within 24 hours replays the filed status and body, with
 *   `idempotent-replayed: true`, and nothing runs;
 * - the same key with a different request answers 422; while the first is still running, 409.
 * An in-flight claim whose process died is taken over once its lock runs out.
 */
export function registerIdempotency(app: App, ctx: AppContext): void {
  app.decorateRequest('idempotency', null);

  // The header is part of each such route's documented contract (OpenAPI).
  app.addHook('onRoute', (route) => {
    if (!route.config?.idempotent) return;
    route.schema ??= {};
    const schema = route.schema as Record<string, unknown>;
    const existing =
      (schema.headers as { properties?: Record<string, unknown> } | undefined)?.properties ?? {};
    schema.headers = Type.Object({
      ...(existing as Record<string, never>),
      [HEADER]: Type.Optional(
        Type.String({
          minLength: 1,
          maxLength: 255,
          description:
            'Repeat safely: the same key and request within 24 hours replays the first answer without a second effect; a different request under the key answers 422, a repeat while the first runs 409.',
        }),
      ),
    });
  });

  app.addHook('preHandler', async (request, reply) => {
    if (!request.routeOptions.config?.idempotent) return;
    const key = request.headers[HEADER];
    if (key === undefined) return;
    if (typeof key !== 'string' || key.length === 0 || key.length > 255 || unstorableText(key)) {
      throw errors.badRequest('Idempotency-Key must be 1 to 255 characters of text.');
    }
    const apiKeyId = request.principal?.keyId;
    if (!apiKeyId) return;
    const fp = fingerprint(request);
    const now = ctx.now();
    // An upload may take as long as the upload timeout; other requests are quick.
    const lockMs = request.isMultipart()
      ? ctx.config.uploadTimeoutMs + 60_000
      : Math.max(ctx.config.requestBodyTimeoutMs, 60_000) + 5 * 60_000;
    const idem = repos(ctx.db).idempotencyKeys;
    for (let attempt = 0; attempt < 2; attempt++) {
      if (
        await idem.claimIdempotencyKey({
          apiKeyId,
          key,
          fingerprint: fp,
          now,
          lockMs,
          ttlMs: IDEMPOTENCY_TTL_MS,
        })
      ) {
        request.idempotency = { apiKeyId, key };
        return;
      }
      const row = await idem.findIdempotencyKey(apiKeyId, key);
      if (!row) continue; // given back between the two reads: claim again
      if (row.fingerprint !== fp) {
        throw errors.unprocessable(
          'This Idempotency-Key was already used with a different request; use a new key for a new request.',
        );
      }
      if (row.state === 'in_flight') {
        throw errors.conflict(
          'A request with this Idempotency-Key is still in progress; retry once it has finished.',
        );
      }
      return replay(reply, row);
    }
    throw errors.conflict(
      'A request with this Idempotency-Key is still in progress; retry once it has finished.',
    );
  });

  app.addHook('onSend', async (request, reply, payload) => {
    const owned = request.idempotency;
    if (!owned) return payload;
    request.idempotency = null;
    const idem = repos(ctx.db).idempotencyKeys;
    if (reply.statusCode >= 500 || (typeof payload !== 'string' && !Buffer.isBuffer(payload))) {
      await idem.releaseIdempotencyKey(owned.apiKeyId, owned.key);
      return payload;
    }
    const contentType = reply.getHeader('content-type');
    await idem.completeIdempotencyKey({
      ...owned,
      status: reply.statusCode,
      contentType: typeof contentType === 'string' ? contentType : null,
      body: typeof payload === 'string' ? payload : payload.toString('utf8'),
    });
    return payload;
  });
}
