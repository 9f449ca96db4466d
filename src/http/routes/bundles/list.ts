import { listWorkspaceBundles } from '../../../domain/bundles.ts';
import type { App, AppContext } from '../../context.ts';
import { WorkspaceParams } from '../../kit/params.ts';
import { keySecurity } from '../../kit/security.ts';
import { Envelope, ok, Type } from '../../schema.ts';
import { BundleSchema } from './schemas.ts';

const schema = {
  tags: ['bundles'],
  security: keySecurity,
  summary: 'Bundles, without members',
  description: 'Spec: interface.md 4.5.',
  params: WorkspaceParams,
  response: { 200: Envelope(Type.Array(BundleSchema)) },
};

export function listBundlesRoute(app: App, ctx: AppContext): void {
  app.get('/v2/workspaces/:workspaceId/bundles', { config: { access: 'read' }, schema }, async (request) =>
    ok(await listWorkspaceBundles(ctx.db, request.params.workspaceId)),
  );
}
