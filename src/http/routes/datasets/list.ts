import { listDatasets } from '../../../domain/datasets.ts';
import { clampLifetime, toFileView } from '../../../domain/files.ts';
import type { App, AppContext } from '../../context.ts';
import { PagedEnvelope } from '../../kit/file-schemas.ts';
import { keySecurity } from '../../kit/security.ts';
import { signer } from '../../kit/share-signer.ts';
import { okPage, Type } from '../../schema.ts';
import { DatasetSchema, ExpiresInSeconds, V1ListQuery, v1Tags } from './schemas.ts';

const schema = {
  tags: v1Tags,
  summary: 'List datasets, newest first by default',
  description: 'Spec: interface.md 4.9.',
  security: keySecurity,
  querystring: Type.Object({
    type: Type.Optional(
      Type.String({ maxLength: 100, description: 'comma-separated: doc, audio, video, image' }),
    ),
    ...V1ListQuery,
    expiresInSeconds: ExpiresInSeconds,
  }),
  response: { 200: PagedEnvelope(Type.Array(DatasetSchema)) },
};

export function listDatasetsRoute(app: App, ctx: AppContext): void {
  app.get('/v1/datasets', { config: { access: 'read' }, schema }, async (request) => {
    const q = request.query;
    const res = await listDatasets(ctx.db, request.principal!.workspaceId, q, ctx.now());
    const life = clampLifetime(q.expiresInSeconds);
    return okPage(res, (f) => toFileView(f, signer(ctx), life));
  });
}
