import { clampLifetime, listFileItems, toItemView } from '../../../domain/files.ts';
import type { App, AppContext } from '../../context.ts';
import { PagedEnvelope } from '../../kit/file-schemas.ts';
import { keySecurity } from '../../kit/security.ts';
import { signer } from '../../kit/share-signer.ts';
import { okPage, Type } from '../../schema.ts';
import { FileParams, ItemSchema, ListQuery } from './schemas.ts';

const schema = {
  tags: ['files'],
  summary:
    'Pages of a file: pdf, jpg and embedding_image items; upload order unless sorted (sort=col for page order)',
  description: 'Spec: interface.md 4.6.',
  security: keySecurity,
  params: FileParams,
  querystring: Type.Object({
    row: Type.Optional(Type.String({ maxLength: 40 })),
    cols: Type.Optional(Type.String({ maxLength: 2000 })),
    ...ListQuery,
  }),
  response: { 200: PagedEnvelope(Type.Array(ItemSchema)) },
};

export function listItemsRoute(app: App, ctx: AppContext): void {
  app.get(
    '/v2/workspaces/:workspaceId/files/:fileId/items',
    { config: { access: 'read' }, schema },
    async (request) => {
      const q = request.query;
      const res = await listFileItems(
        ctx.db,
        request.params.workspaceId,
        request.params.fileId,
        q,
        ctx.now(),
      );
      const life = clampLifetime(q.expiresInSeconds);
      return okPage(res, (i) => toItemView(i, signer(ctx), life));
    },
  );
}
