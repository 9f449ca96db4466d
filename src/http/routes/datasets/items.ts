import { DATASET } from '../../../domain/datasets.ts';
import { clampLifetime, listFileItems, toItemView } from '../../../domain/files.ts';
import type { App, AppContext } from '../../context.ts';
import { keySecurity } from '../../kit/security.ts';
import { signer } from '../../kit/share-signer.ts';
import { Type } from '../../schema.ts';
import {
  DatasetItemSchema,
  DatasetParams,
  ExpiresInSeconds,
  SortedPage,
  V1ListQuery,
  v1Tags,
} from './schemas.ts';

const schema = {
  tags: v1Tags,
  summary:
    'Pages of a dataset; upload order unless sorted (sort=col for page order); sort [] means upload order',
  description: 'Spec: interface.md 4.9.',
  security: keySecurity,
  params: DatasetParams,
  querystring: Type.Object({
    row: Type.Optional(Type.String({ maxLength: 40, description: 'pdf, jpg or embedding_image' })),
    cols: Type.Optional(
      Type.String({ maxLength: 2000, description: 'pages and inclusive ranges, e.g. 1,3,5:10' }),
    ),
    ...V1ListQuery,
    expiresInSeconds: ExpiresInSeconds,
  }),
  response: { 200: SortedPage(Type.Array(DatasetItemSchema)) },
};

export function datasetItemsRoute(app: App, ctx: AppContext): void {
  app.get('/v1/datasets/:id/items', { config: { access: 'read' }, schema }, async (request) => {
    const q = request.query;
    const res = await listFileItems(
      ctx.db,
      request.principal!.workspaceId,
      request.params.id,
      q,
      ctx.now(),
      DATASET,
    );
    const life = clampLifetime(q.expiresInSeconds);
    const data = res.rows.map((i) => {
      const { fileId, ...rest } = toItemView(i, signer(ctx), life);
      return { ...rest, datasetId: fileId };
    });
    return { success: true, sort: res.sort, offset: res.offset, limit: res.limit, total: res.total, data };
  });
}
