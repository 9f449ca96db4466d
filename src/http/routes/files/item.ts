import { clampLifetime, getFileItem, toItemView } from '../../../domain/files.ts';
import type { App, AppContext } from '../../context.ts';
import { ExpiresInSeconds } from '../../kit/file-schemas.ts';
import { keySecurity } from '../../kit/security.ts';
import { signer } from '../../kit/share-signer.ts';
import { Envelope, ok, Type } from '../../schema.ts';
import { ItemSchema } from './schemas.ts';

const schema = {
  tags: ['files'],
  summary: 'One page item',
  description: 'Spec: interface.md 4.6.',
  security: keySecurity,
  params: Type.Object({
    workspaceId: Type.String({ maxLength: 80 }),
    fileId: Type.String({ maxLength: 80 }),
    fileItemId: Type.String({ maxLength: 80 }),
  }),
  querystring: Type.Object({ expiresInSeconds: ExpiresInSeconds }),
  response: { 200: Envelope(ItemSchema) },
};

export function getItemRoute(app: App, ctx: AppContext): void {
  app.get(
    '/v2/workspaces/:workspaceId/files/:fileId/items/:fileItemId',
    { config: { access: 'read' }, schema },
    async (request) => {
      const { workspaceId, fileId, fileItemId } = request.params;
      const item = await getFileItem(ctx.db, workspaceId, fileId, fileItemId, ctx.now());
      return ok(toItemView(item, signer(ctx), clampLifetime(request.query.expiresInSeconds)));
    },
  );
}
