import { getWorkspace } from '../../../domain/workspaces.ts';
import type { App, AppContext } from '../../context.ts';
import { WorkspaceParams } from '../../kit/params.ts';
import { keySecurity } from '../../kit/security.ts';
import { Envelope, EpochMs, Nullable, ok, Type } from '../../schema.ts';

const WorkspaceViewSchema = Type.Object({
  id: Type.String(),
  name: Type.String(),
  tier: Type.String(),
  balance: Type.Integer({ description: 'credits left' }),
  spendCap: Nullable(Type.Integer({ description: 'monthly spend cap in credits; null means none' })),
  monthSpend: Type.Integer({ description: 'credits spent this calendar month (UTC)' }),
  createdAt: EpochMs,
  updatedAt: EpochMs,
});

const schema = {
  tags: ['workspaces'],
  summary: 'The workspace of the key: name, tier, credit balance, spend cap and month spend',
  description: 'Spec: decisions.md D1.',
  security: keySecurity,
  params: WorkspaceParams,
  response: { 200: Envelope(WorkspaceViewSchema) },
};

export function getKeyWorkspaceRoute(app: App, ctx: AppContext): void {
  app.get('/v2/workspaces/:workspaceId', { config: { access: 'read' }, schema }, async (request) =>
    ok(await getWorkspace(ctx.db, request.params.workspaceId, ctx.now())),
  );
}
