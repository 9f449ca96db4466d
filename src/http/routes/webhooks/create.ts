import { createWebhook } from '../../../domain/webhooks.ts';
import type { App, AppContext } from '../../context.ts';
import { WorkspaceParams } from '../../kit/params.ts';
import { keySecurity } from '../../kit/security.ts';
import { Body, Envelope, ok, Type } from '../../schema.ts';
import { DESCRIPTION, Events, Url, WebhookSchema } from './schemas.ts';
import { checkTarget } from './target.ts';

const schema = {
  tags: ['webhooks'],
  security: keySecurity,
  summary: 'Add an endpoint; the signing secret is in this answer only',
  description: DESCRIPTION,
  params: WorkspaceParams,
  body: Body({ url: Url, events: Events, enabled: Type.Optional(Type.Boolean()) }),
  response: {
    200: Envelope(
      Type.Intersect([
        WebhookSchema,
        Type.Object({ secret: Type.String({ description: 'whsec_…, shown once' }) }),
      ]),
    ),
  },
};

export function createWebhookRoute(app: App, ctx: AppContext): void {
  app.post(
    '/v2/workspaces/:workspaceId/webhooks',
    { config: { access: 'read_write' }, schema },
    async (request) => {
      await checkTarget(request.body.url, ctx);
      const { webhook, secret } = await createWebhook(
        ctx.db,
        request.params.workspaceId,
        request.body,
        ctx.shareSecret,
        ctx.now(),
      );
      return ok({ ...webhook, secret });
    },
  );
}
