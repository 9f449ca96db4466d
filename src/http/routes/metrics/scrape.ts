import { errors } from '../../../domain/errors.ts';
import { enableProcessMetrics } from '../../../infra/metrics.ts';
import { bearerMatches, scrapeMetrics } from '../../../infra/metrics-scrape.ts';
import type { App, AppContext } from '../../context.ts';

/**
 * GET /metrics (issue 17): the Prometheus exposition text of this process, plus the queue and
 * cell gauges of the whole deployment read from the database now. Off (404, like a route that
 * does not exist) without METRICS_TOKEN; with it, `Authorization: Bearer <token>`, compared in
 * constant time, or 401 in plain text. Kept out of the OpenAPI document: it is for operators'
 * scrapers, not API clients (README "Metrics").
 */
export function scrapeMetricsRoute(app: App, ctx: AppContext): void {
  const token = ctx.config.metricsToken;
  if (token !== null) enableProcessMetrics();
  app.get(
    '/metrics',
    { config: { access: 'public', rateLimit: false }, schema: { hide: true } },
    async (request, reply) => {
      if (token === null) return reply.callNotFound();
      if (!bearerMatches(request.headers.authorization, token)) {
        throw errors.unauthorized('Unauthorized: a valid Authorization: Bearer token is required.');
      }
      const { contentType, body } = await scrapeMetrics(ctx.db, ctx.now());
      return reply.type(contentType).header('cache-control', 'no-store').send(body);
    },
  );
}
