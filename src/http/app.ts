import multipart from '@fastify/multipart';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import Fastify, { type FastifyServerOptions, LogController } from 'fastify';
import { SINGLE_REQUEST_BYTES } from '../domain/tiers.ts';
import { randomBase62 } from '../infra/ids.ts';
import { loggerOptions } from '../infra/logger.ts';
import type { App, AppContext } from './context.ts';
import { registerErrorHandling } from './errors.ts';
import { registerAuth } from './plugins/auth.ts';
import { registerDrain } from './plugins/drain.ts';
import { registerIdempotency } from './plugins/idempotency.ts';
import { registerOpenApi } from './plugins/openapi.ts';
import { registerRateLimit } from './plugins/rate-limit.ts';
import { registerRequestMetrics } from './plugins/request-metrics.ts';
import { registerInputSanitiser } from './plugins/sanitize.ts';
import { registerBodyTimeouts, serverTimeouts } from './plugins/timeouts.ts';
import { registerAdminRoutes } from './routes/admin/index.ts';
import { registerBundleRoutes } from './routes/bundles/index.ts';
import { registerCellRoutes } from './routes/cells/index.ts';
import { registerColumnRoutes } from './routes/columns/index.ts';
import { registerDatasetRoutes } from './routes/datasets/index.ts';
import { registerFileRoutes } from './routes/files/index.ts';
import { registerHealthRoutes } from './routes/health/index.ts';
import { registerJobRoutes } from './routes/jobs/index.ts';
import { registerMetricsRoutes } from './routes/metrics/index.ts';
import { registerRowRoutes } from './routes/rows/index.ts';
import { registerRunRoutes } from './routes/runs/index.ts';
import { registerSearchRoutes } from './routes/search/index.ts';
import { registerShareRoutes } from './routes/share/index.ts';
import { registerTableRoutes } from './routes/tables/index.ts';
import { registerUploadSessionRoutes } from './routes/upload-sessions/index.ts';
import { registerWebAppRoutes } from './routes/web-app/index.ts';
import { registerWebhookRoutes } from './routes/webhooks/index.ts';
import { registerWorkspaceRoutes } from './routes/workspaces/index.ts';
import { formatValidationErrors, validatorCompiler } from './validation.ts';

const REQUEST_ID = /^[A-Za-z0-9._-]{1,64}$/;

export async function buildApp(
  ctx: AppContext,
  options: { logger?: FastifyServerOptions['logger'] } = {},
): Promise<App> {
  const app = Fastify({
    logger: options.logger ?? loggerOptions(ctx.config.logLevel),
    // A caller's request id is kept when it is sane, so logs can be joined across services.
    genReqId: (req) => {
      const given = req.headers['x-request-id'];
      return typeof given === 'string' && REQUEST_ID.test(given) ? given : `req_${randomBase62(16)}`;
    },
    logController: new LogController({ requestIdLogLabel: 'requestId' }),
    schemaErrorFormatter: formatValidationErrors,
    routerOptions: { ignoreTrailingSlash: true },
    ...serverTimeouts(ctx.config),
    trustProxy: trustProxyOption(ctx.config.trustProxy),
  }).withTypeProvider<TypeBoxTypeProvider>();
  app.setValidatorCompiler(validatorCompiler);
  app.addHook('onSend', async (request, reply) => {
    reply.header('x-request-id', request.id);
  });

  registerErrorHandling(app);
  registerRequestMetrics(app);
  registerDrain(app);
  registerBodyTimeouts(app, ctx);
  registerInputSanitiser(app);
  registerAuth(app, ctx);
  registerIdempotency(app, ctx);
  await registerRateLimit(app, ctx);
  await registerOpenApi(app);
  // Our own, smaller limits (tier ceilings) are enforced while streaming; these only bound abuse.
  await app.register(multipart, {
    limits: { fileSize: SINGLE_REQUEST_BYTES + 1, files: 1, fields: 10, fieldSize: 64 * 1024, parts: 20 },
  });

  registerHealthRoutes(app, ctx);
  registerMetricsRoutes(app, ctx);
  registerAdminRoutes(app, ctx);
  registerTableRoutes(app, ctx);
  registerFileRoutes(app, ctx);
  registerJobRoutes(app, ctx);
  registerShareRoutes(app, ctx);
  registerColumnRoutes(app, ctx);
  registerRowRoutes(app, ctx);
  registerBundleRoutes(app, ctx);
  registerCellRoutes(app, ctx);
  registerRunRoutes(app, ctx);
  registerDatasetRoutes(app, ctx);
  registerUploadSessionRoutes(app, ctx);
  registerSearchRoutes(app, ctx);
  registerWorkspaceRoutes(app, ctx);
  registerWebhookRoutes(app, ctx);
  await registerWebAppRoutes(app, ctx);
  return app;
}

/** A number of hops becomes proxy-addr's hop test (Fastify's types take no plain number). */
function trustProxyOption(t: boolean | number | string[]) {
  return typeof t === 'number' ? (_address: string, hop: number) => hop < t : t;
}
