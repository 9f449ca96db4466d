import { listWorkspaceWebhooks } from '../../../domain/webhooks.ts';
import type { App, AppContext } from '../../context.ts';
import { WorkspaceParams } from '../../kit/params.ts';
import { keySecurity } from '../../kit/security.ts';
import { Envelope, ok, Type } from '../../schema.ts';
import { DESCRIPTION, WebhookSchema } from './schemas.ts';

const schema = {
  tags: ['webhooks'],
  security: keySecurity,
  summary: 'List the workspace’s endpoints (never their secrets)',
  description: DESCRIPTION,
  params: WorkspaceParams,
  response: { 200: Envelope(Type.Array(WebhookSchema)) },
};

export function listWebhooksRoute(app: App, ctx: AppContext): void {
  app.get('/v2/workspaces/:workspaceId/webhooks', { config: { access: 'read' }, schema }, async (request) =>
    ok(await listWorkspaceWebhooks(ctx.db, request.params.workspaceId)),
  );
}
