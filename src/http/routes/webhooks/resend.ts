import { getWebhook, resendDelivery } from '../../../domain/webhooks.ts';
import type { App, AppContext } from '../../context.ts';
import { keySecurity } from '../../kit/security.ts';
import { Envelope, ok, Type } from '../../schema.ts';
import { DESCRIPTION, WebhookSchema } from './schemas.ts';

const schema = {
  tags: ['webhooks'],
  security: keySecurity,
  summary: 'Send a finished delivery again, now (same message id); 409 while it is still being sent',
  description: DESCRIPTION,
  params: Type.Object({
    workspaceId: Type.String({ maxLength: 80 }),
    webhookId: Type.String({ maxLength: 80 }),
    deliveryId: Type.String({ maxLength: 80 }),
  }),
  response: { 200: Envelope(WebhookSchema) },
};

export function resendDeliveryRoute(app: App, ctx: AppContext): void {
  app.post(
    '/v2/workspaces/:workspaceId/webhooks/:webhookId/deliveries/:deliveryId/resend',
    { config: { access: 'read_write' }, schema },
    async (request) => {
      const { workspaceId, webhookId, deliveryId } = request.params;
      await resendDelivery(ctx.db, workspaceId, webhookId, deliveryId, ctx.now);
      ctx.notifyWork();
      return ok(await getWebhook(ctx.db, workspaceId, webhookId));
    },
  );
}
