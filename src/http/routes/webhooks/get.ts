import { getWebhook } from '../../../domain/webhooks.ts';
import type { App, AppContext } from '../../context.ts';
import { keySecurity } from '../../kit/security.ts';
import { Envelope, ok } from '../../schema.ts';
import { DESCRIPTION, WebhookParams, WebhookSchema } from './schemas.ts';

const schema = {
  tags: ['webhooks'],
  security: keySecurity,
  summary: 'One endpoint, with whether it is failing or was disabled',
  description: DESCRIPTION,
  params: WebhookParams,
  response: { 200: Envelope(WebhookSchema) },
};

export function getWebhookRoute(app: App, ctx: AppContext): void {
  app.get(
    '/v2/workspaces/:workspaceId/webhooks/:webhookId',
    { config: { access: 'read' }, schema },
    async (request) => ok(await getWebhook(ctx.db, request.params.workspaceId, request.params.webhookId)),
  );
}
