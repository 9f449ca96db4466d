import { patchWebhook } from '../../../domain/webhooks.ts';
import type { App, AppContext } from '../../context.ts';
import { keySecurity } from '../../kit/security.ts';
import { Body, Envelope, ok, Type } from '../../schema.ts';
import { DESCRIPTION, Events, Url, WebhookParams, WebhookSchema } from './schemas.ts';
import { checkTarget } from './target.ts';

const schema = {
  tags: ['webhooks'],
  security: keySecurity,
  summary: 'Change the URL or events, or turn the endpoint on or off (on again clears its failures)',
  description: DESCRIPTION,
  params: WebhookParams,
  body: Body({
    url: Type.Optional(Url),
    events: Type.Optional(Events),
    enabled: Type.Optional(Type.Boolean()),
  }),
  response: { 200: Envelope(WebhookSchema) },
};

export function patchWebhookRoute(app: App, ctx: AppContext): void {
  app.patch(
    '/v2/workspaces/:workspaceId/webhooks/:webhookId',
    { config: { access: 'read_write' }, schema },
    async (request) => {
      if (request.body.url !== undefined) await checkTarget(request.body.url, ctx);
      return ok(
        await patchWebhook(
          ctx.db,
          request.params.workspaceId,
          request.params.webhookId,
          request.body,
          ctx.now,
        ),
      );
    },
  );
}
