import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import type { App } from '../context.ts';

/** The OpenAPI document is generated from the same route schemas that validate requests. */
export async function registerOpenApi(app: App): Promise<void> {
  await app.register(swagger, {
    openapi: {
      openapi: '3.1.0',
      info: {
        title: 'Folio API',
        version: '0.1.0',
        description:
          'Document extraction: ingest documents into pages, ask questions in tables, get cited answers. ' +
          'JSON successes use the envelope `{success, total, data}`; rejections before the handler are plain text.',
      },
      components: {
        securitySchemes: {
          apiKey: { type: 'apiKey', in: 'header', name: 'x-api-key' },
          adminToken: { type: 'apiKey', in: 'header', name: 'x-admin-token' },
        },
      },
    },
  });
  await app.register(swaggerUi, { routePrefix: '/docs' });
  app.get('/openapi.json', { config: { access: 'public' }, schema: { hide: true } }, async () =>
    app.swagger(),
  );
}
