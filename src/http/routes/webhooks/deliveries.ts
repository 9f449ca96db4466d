import { listDeliveries } from '../../../domain/webhooks.ts';
import type { App, AppContext } from '../../context.ts';
import { keySecurity } from '../../kit/security.ts';
import { Type } from '../../schema.ts';
import { DESCRIPTION, DeliverySchema, WebhookParams } from './schemas.ts';

const schema = {
  tags: ['webhooks'],
  security: keySecurity,
  summary: 'Deliveries to an endpoint, newest first: each attempt’s status code, error and latency',
  description: DESCRIPTION,
  params: WebhookParams,
  querystring: Type.Object({
    offset: Type.Optional(Type.Integer({ minimum: 0, default: 0 })),
    limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 100, default: 20 })),
  }),
  response: {
    200: Type.Object({
      success: Type.Boolean(),
      total: Type.Integer(),
      offset: Type.Integer(),
      limit: Type.Integer(),
      data: Type.Array(DeliverySchema),
    }),
  },
};

export function listDeliveriesRoute(app: App, ctx: AppContext): void {
  app.get(
    '/v2/workspaces/:workspaceId/webhooks/:webhookId/deliveries',
    { config: { access: 'read' }, schema },
    async (request) => {
      const page = { offset: request.query.offset ?? 0, limit: request.query.limit ?? 20 };
      const { total, deliveries } = await listDeliveries(
        ctx.db,
        request.params.workspaceId,
        request.params.webhookId,
        page,
      );
      return { success: true, total, ...page, data: deliveries };
    },
  );
}
