import { DATASET, expireDataset, listDatasets } from '../../../domain/datasets.ts';
import { clampLifetime, getFile, SHARE_DEFAULT_SECONDS, toFileView } from '../../../domain/files.ts';
import type { App, AppContext } from '../../context.ts';
import { Envelope, ok, okPage, Type } from '../../schema.ts';
import { signer } from '../files/list.ts';
import { PagedEnvelope } from '../files/schemas.ts';
import { keySecurity } from '../tables/schemas.ts';
import { DatasetParams, DatasetSchema, ExpiresInSeconds, V1ListQuery, v1Tags } from './schemas.ts';

const list = {
  tags: v1Tags,
  summary: 'List datasets, newest first by default',
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

const one = {
  tags: v1Tags,
  summary: 'One dataset',
  security: keySecurity,
  params: DatasetParams,
  querystring: Type.Object({ expiresInSeconds: ExpiresInSeconds }),
  response: { 200: Envelope(DatasetSchema) },
};

const remove = {
  tags: v1Tags,
  summary: 'Delete a dataset: expires it now (404 from then on); the expiry sweeper removes it for good',
  security: keySecurity,
  params: DatasetParams,
  response: { 200: Envelope(DatasetSchema) },
};

export function datasetRoutes(app: App, ctx: AppContext): void {
  app.get('/v1/datasets', { config: { access: 'read' }, schema: list }, async (request) => {
    const q = request.query;
    const res = await listDatasets(ctx.db, request.principal!.workspaceId, q);
    const life = clampLifetime(q.expiresInSeconds);
    return okPage(res, (f) => toFileView(f, signer(ctx), life));
  });

  app.get('/v1/datasets/:id', { config: { access: 'read' }, schema: one }, async (request) => {
    const f = await getFile(ctx.db, request.principal!.workspaceId, request.params.id, DATASET);
    return ok(toFileView(f, signer(ctx), clampLifetime(request.query.expiresInSeconds)));
  });

  app.delete('/v1/datasets/:id', { config: { access: 'read_write' }, schema: remove }, async (request) => {
    const now = (ctx.now ?? Date.now)();
    const f = await expireDataset(ctx.db, request.principal!.workspaceId, request.params.id, now);
    return ok(toFileView(f, signer(ctx), SHARE_DEFAULT_SECONDS));
  });
}
