import { grantCredits } from '../../../domain/workspaces.ts';
import type { App, AppContext } from '../../context.ts';
import { Body, Envelope, ok, Type } from '../../schema.ts';
import { adminRoute, adminSecurity, WorkspaceParams, WorkspaceSchema } from './schemas.ts';

const schema = {
  tags: ['admin'],
  summary: 'Add (or, negative, remove) credits; the balance never goes below 0',
  description: 'Spec: decisions.md D1.',
  security: adminSecurity,
  params: WorkspaceParams,
  body: Body({ amount: Type.Integer({ minimum: -1_000_000_000, maximum: 1_000_000_000 }) }),
  response: { 200: Envelope(WorkspaceSchema) },
};

export function grantCreditsRoute(app: App, ctx: AppContext): void {
  app.post('/admin/workspaces/:id/credits', { config: adminRoute, schema }, async (request) =>
    ok(await grantCredits(ctx.db, request.params.id, request.body.amount, 'admin', ctx.now)),
  );
}
