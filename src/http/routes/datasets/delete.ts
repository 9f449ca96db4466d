import { expireDataset } from '../../../domain/datasets.ts';
import { SHARE_DEFAULT_SECONDS, toFileView } from '../../../domain/files.ts';
import type { App, AppContext } from '../../context.ts';
import { keySecurity } from '../../kit/security.ts';
import { signer } from '../../kit/share-signer.ts';
import { Envelope, ok } from '../../schema.ts';
import { DatasetParams, DatasetSchema, v1Tags } from './schemas.ts';

const schema = {
  tags: v1Tags,
  summary: 'Delete a dataset: expires it now (404 from then on); the expiry sweeper removes it for good',
  description: 'Spec: interface.md 4.9.',
  security: keySecurity,
  params: DatasetParams,
  response: { 200: Envelope(DatasetSchema) },
};

export function deleteDatasetRoute(app: App, ctx: AppContext): void {
  app.delete('/v1/datasets/:id', { config: { access: 'read_write' }, schema }, async (request) => {
    const now = ctx.now();
    const f = await expireDataset(ctx.db, request.principal!.workspaceId, request.params.id, now);
    return ok(toFileView(f, signer(ctx), SHARE_DEFAULT_SECONDS));
  });
}
