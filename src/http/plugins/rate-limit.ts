import rateLimit from '@fastify/rate-limit';
import { errors } from '../../domain/errors.ts';
import type { App, AppContext } from '../context.ts';

const NO_HEADERS = {
  'x-ratelimit-limit': false,
  'x-ratelimit-remaining': false,
  'x-ratelimit-reset': false,
  'retry-after': false,
} as const;

/**
 * Per API key (decisions.md D3). Its hook is attached to each route, so it runs after the
 * global auth hook and can count by key id; calls without a key count by address.
 * Section 7: no header tells the wait time.
 */
export async function registerRateLimit(app: App, ctx: AppContext): Promise<void> {
  if (ctx.config.rateLimitPerMin === 0) return;
  await app.register(rateLimit, {
    global: true,
    max: ctx.config.rateLimitPerMin,
    timeWindow: 60_000,
    keyGenerator: (request) => request.principal?.keyId ?? `ip:${request.ip}`,
    addHeaders: NO_HEADERS,
    addHeadersOnExceeding: NO_HEADERS,
    errorResponseBuilder: () => errors.rateLimited(),
  });
}
