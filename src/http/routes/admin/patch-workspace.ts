import { patchWorkspace } from '../../../domain/workspaces.ts';
import type { App, AppContext } from '../../context.ts';
import { Body, Envelope, Nullable, ok, Type } from '../../schema.ts';
import { adminRoute, adminSecurity, TierSchema, WorkspaceParams, WorkspaceSchema } from './schemas.ts';

const schema = {
  tags: ['admin'],
  summary: 'Rename a workspace, change its tier or spend cap',
  description: 'Spec: decisions.md D1.',
  security: adminSecurity,
  params: WorkspaceParams,
  body: Body({
    name: Type.Optional(Type.String({ minLength: 1, maxLength: 120 })),
    tier: Type.Optional(TierSchema),
    spendCap: Type.Optional(Nullable(Type.Integer({ minimum: 0 }))),
  }),
  response: { 200: Envelope(WorkspaceSchema) },
};

export function patchWorkspaceRoute(app: App, ctx: AppContext): void {
  app.patch('/admin/workspaces/:id', { config: adminRoute, schema }, async (request) =>
    ok(await patchWorkspace(ctx.db, request.params.id, request.body, ctx.now)),
  );
}
