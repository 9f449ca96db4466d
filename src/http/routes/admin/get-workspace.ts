import { getWorkspace } from '../../../domain/workspaces.ts';
import type { App, AppContext } from '../../context.ts';
import { Envelope, ok } from '../../schema.ts';
import { adminRoute, adminSecurity, WorkspaceParams, WorkspaceSchema } from './schemas.ts';

const schema = {
  tags: ['admin'],
  summary: 'Show a workspace with its balance and month spend',
  description: 'Spec: decisions.md D1.',
  security: adminSecurity,
  params: WorkspaceParams,
  response: { 200: Envelope(WorkspaceSchema) },
};

export function getWorkspaceRoute(app: App, ctx: AppContext): void {
  app.get('/admin/workspaces/:id', { config: adminRoute, schema }, async (request) =>
    ok(await getWorkspace(ctx.db, request.params.id, ctx.now())),
  );
}
