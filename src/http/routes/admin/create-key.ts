import { createApiKey } from '../../../domain/api-keys.ts';
import type { App, AppContext } from '../../context.ts';
import { Body, Envelope, EpochMs, Nullable, ok, Type } from '../../schema.ts';
import { ApiKeySchema, adminRoute, adminSecurity, KeyLevelSchema, WorkspaceParams } from './schemas.ts';

const schema = {
  tags: ['admin'],
  summary: 'Create an API key; the secret `key` is shown only in this response',
  description: 'Spec: decisions.md D1.',
  security: adminSecurity,
  params: WorkspaceParams,
  body: Body({
    level: KeyLevelSchema,
    expiresAt: Type.Optional(Nullable(EpochMs)),
  }),
  response: { 200: Envelope(Type.Intersect([ApiKeySchema, Type.Object({ key: Type.String() })])) },
};

export function createKeyRoute(app: App, ctx: AppContext): void {
  app.post('/admin/workspaces/:id/keys', { config: adminRoute, schema }, async (request, reply) => {
    reply.header('cache-control', 'no-store');
    return ok(await createApiKey(ctx.db, request.params.id, request.body, ctx.now()));
  });
}
