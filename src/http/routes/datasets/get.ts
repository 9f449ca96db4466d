import { DATASET } from '../../../domain/datasets.ts';
import { clampLifetime, getFile, toFileView } from '../../../domain/files.ts';
import type { App, AppContext } from '../../context.ts';
import { keySecurity } from '../../kit/security.ts';
import { signer } from '../../kit/share-signer.ts';
import { Envelope, ok, Type } from '../../schema.ts';
import { DatasetParams, DatasetSchema, ExpiresInSeconds, v1Tags } from './schemas.ts';

const schema = {
  tags: v1Tags,
  summary: 'One dataset',
  description: 'Spec: interface.md 4.9.',
  security: keySecurity,
  params: DatasetParams,
  querystring: Type.Object({ expiresInSeconds: ExpiresInSeconds }),
  response: { 200: Envelope(DatasetSchema) },
};

export function getDatasetRoute(app: App, ctx: AppContext): void {
  app.get('/v1/datasets/:id', { config: { access: 'read' }, schema }, async (request) => {
    const f = await getFile(ctx.db, request.principal!.workspaceId, request.params.id, ctx.now(), DATASET);
    return ok(toFileView(f, signer(ctx), clampLifetime(request.query.expiresInSeconds)));
  });
}
