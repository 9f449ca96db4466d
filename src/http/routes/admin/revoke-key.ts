import { revokeKey } from '../../../domain/api-keys.ts';
import type { App, AppContext } from '../../context.ts';
import { Envelope, ok, Type } from '../../schema.ts';
import { ApiKeySchema, adminRoute, adminSecurity } from './schemas.ts';

const schema = {
  tags: ['admin'],
  summary: 'Revoke an API key; its secret answers 401 from then on',
  description: 'Spec: decisions.md D1.',
  security: adminSecurity,
  params: Type.Object({ keyId: Type.String({ maxLength: 80 }) }),
  response: { 200: Envelope(ApiKeySchema) },
};

export function revokeKeyRoute(app: App, ctx: AppContext): void {
  app.delete('/admin/keys/:keyId', { config: adminRoute, schema }, async (request) =>
    ok(await revokeKey(ctx.db, request.params.keyId, ctx.now)),
  );
}
