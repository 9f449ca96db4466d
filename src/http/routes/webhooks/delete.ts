import { deleteWebhook } from '../../../domain/webhooks.ts';
import type { App, AppContext } from '../../context.ts';
import { keySecurity } from '../../kit/security.ts';
import { Envelope, ok } from '../../schema.ts';
import { DESCRIPTION, WebhookParams, WebhookSchema } from './schemas.ts';

const schema = {
  tags: ['webhooks'],
  security: keySecurity,
  summary: 'Remove an endpoint and its delivery history; nothing more is sent to it',
  description: DESCRIPTION,
  params: WebhookParams,
  response: { 200: Envelope(WebhookSchema) },
};

export function deleteWebhookRoute(app: App, ctx: AppContext): void {
  app.delete(
    '/v2/workspaces/:workspaceId/webhooks/:webhookId',
    { config: { access: 'read_write' }, schema },
    async (request) => ok(await deleteWebhook(ctx.db, request.params.workspaceId, request.params.webhookId)),
  );
}
