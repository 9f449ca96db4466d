import { createHash, timingSafeEqual } from 'node:crypto';
import type { FastifyRequest } from 'fastify';
import { authenticate, levelAllows } from '../../domain/api-keys.ts';
import { errors } from '../../domain/errors.ts';
import { repos } from '../../infra/repos/index.ts';
import type { App, AppContext } from '../context.ts';
import { AuthFailureThrottle } from './auth-throttle.ts';

/** Routes a plugin adds for the API reference page; everything else must declare its access. */
const DOCS_PREFIX = '/docs';

function sameSecret(a: string, b: string): boolean {
  const ha = createHash('sha256').update(a).digest();
  const hb = createHash('sha256').update(b).digest();
  return timingSafeEqual(ha, hb);
}

/**
 * One hook enforces every route's declared access, before validation and the handler, in
 * the order of section 5: a bad key (401), a workspace or table the key cannot reach
 * (404), then a level too low (403). All of these answer plain text.
 *
 * Before any of that, an address that has failed authentication too often this minute
 * (AUTH_FAILURES_PER_MIN) answers 429, plain text like the other rate limit (issue 15 F8).
 * Only a presented credential that fails counts: a missing header is not a guess.
 */
export function registerAuth(app: App, ctx: AppContext): void {
  app.decorateRequest('principal', null);
  const limit = ctx.config.authFailuresPerMin;
  const throttle = limit > 0 ? new AuthFailureThrottle(limit, ctx.now) : null;
  const failed = (request: FastifyRequest) => {
    if (throttle?.fail(request.ip)) {
      request.log.warn({ address: request.ip, limit }, 'too many failed authentications: address throttled');
    }
  };

  app.addHook('onRoute', (route) => {
    if (route.config?.access === undefined && !route.url?.startsWith(DOCS_PREFIX)) {
      throw new Error(`Route ${route.method} ${route.url} does not declare its access level`);
    }
  });

  app.addHook('onRequest', async (request, reply) => {
    const access = request.routeOptions.config?.access;
    if (access === undefined || access === 'public') return;
    // Without ADMIN_TOKEN the admin API does not exist (decisions.md D1), blocked or not.
    if (access === 'admin' && ctx.config.adminToken === null) throw errors.notFound('Route', true);
    if (throttle?.blocked(request.ip)) throw errors.rateLimited();
    if (access === 'admin') return checkAdmin(request, ctx.config.adminToken as string, failed);

    const header = request.headers['x-api-key'];
    const principal = await authenticate(ctx.db, typeof header === 'string' ? header : undefined, ctx.now());
    if (!principal) {
      if (header !== undefined) failed(request);
      throw errors.unauthorized();
    }
    request.principal = principal;
    // Fastify logs completion through reply.log, so both carry the key id.
    request.log = reply.log = request.log.child({ keyId: principal.keyId });

    const params = (request.params ?? {}) as Record<string, string | undefined>;
    if (params.workspaceId !== undefined) {
      if (params.workspaceId !== principal.workspaceId) throw errors.notFound('Workspace', true);
      if (
        params.tableId !== undefined &&
        !(await repos(ctx.db).tables.findTable(principal.workspaceId, params.tableId))
      ) {
        throw errors.notFound('Table', true);
      }
    }
    if (!levelAllows(principal.level, access)) throw errors.forbidden();
  });
}

function checkAdmin(
  request: FastifyRequest,
  adminToken: string,
  failed: (request: FastifyRequest) => void,
): void {
  const presented = request.headers['x-admin-token'];
  if (typeof presented !== 'string' || !sameSecret(presented, adminToken)) {
    if (presented !== undefined) failed(request);
    throw errors.unauthorized('Unauthorized: a valid x-admin-token header is required.');
  }
}
