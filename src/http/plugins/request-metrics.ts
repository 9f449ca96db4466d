import { observeHttpRequest } from '../../infra/metrics.ts';
import type { App } from '../context.ts';

/**
 * Every answered request into folio_http_request_duration_seconds, labelled by the route
 * pattern (`/v2/workspaces/:workspaceId/jobs/:jobId`), never the raw URL: ids in labels would
 * make a series per resource. A request no route matched counts under `unmatched`.
 */
export function registerRequestMetrics(app: App): void {
  app.addHook('onResponse', async (request, reply) => {
    observeHttpRequest(
      request.method,
      request.routeOptions.url ?? 'unmatched',
      reply.statusCode,
      reply.elapsedTime / 1000,
    );
  });
}
