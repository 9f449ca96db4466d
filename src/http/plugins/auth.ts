import { createHash, timingSafeEqual } from 'node:crypto';
import type { FastifyRequest } from 'fastify';
import { authenticate, levelAllows } from '../../domain/api-keys.ts';
import { errors } from '../../domain/errors.ts';
import { repos } from '../../infra/repos/index.ts';
import type { App, AppContext } from '../context.ts';

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
 */
export function registerAuth(app: App, ctx: AppContext): void {
  app.decorateRequest('principal', null);

  app.addHook('onRoute', (route) => {
    if (route.config?.access === undefined && !route.url?.startsWith(DOCS_PREFIX)) {
      throw new Error(`Route ${route.method} ${route.url} does not declare its access level`);
    }
  });

  app.addHook('onRequest', async (request, reply) => {
    const access = request.routeOptions.config?.access;
    if (access === undefined || access === 'public') return;
    if (access === 'admin') return checkAdmin(request, ctx);

    const header = request.headers['x-api-key'];
    const principal = await authenticate(ctx.db, typeof header === 'string' ? header : undefined, ctx.now());
    if (!principal) throw errors.unauthorized();
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

function checkAdmin(request: FastifyRequest, ctx: AppContext): void {
  // Without ADMIN_TOKEN the admin API does not exist (decisions.md D1).
  if (ctx.config.adminToken === null) throw errors.notFound('Route', true);
  const presented = request.headers['x-admin-token'];
  if (typeof presented !== 'string' || !sameSecret(presented, ctx.config.adminToken)) {
    throw errors.unauthorized('Unauthorized: a valid x-admin-token header is required.');
  }
}
