import { createWorkspace } from '../../../domain/workspaces.ts';
import type { App, AppContext } from '../../context.ts';
import { Body, Envelope, Nullable, ok, Type } from '../../schema.ts';
import { adminRoute, adminSecurity, TierSchema, WorkspaceSchema } from './schemas.ts';

const schema = {
  tags: ['admin'],
  summary: 'Create a workspace',
  description: 'Spec: decisions.md D1.',
  security: adminSecurity,
  body: Body({
    name: Type.String({ minLength: 1, maxLength: 120 }),
    tier: Type.Optional(TierSchema),
    credits: Type.Optional(Type.Integer({ minimum: 0 })),
    spendCap: Type.Optional(Nullable(Type.Integer({ minimum: 0 }))),
  }),
  response: { 200: Envelope(WorkspaceSchema) },
};

export function createWorkspaceRoute(app: App, ctx: AppContext): void {
  app.post('/admin/workspaces', { config: adminRoute, schema }, async (request) =>
    ok(await createWorkspace(ctx.db, request.body, 'admin', ctx.now())),
  );
}
