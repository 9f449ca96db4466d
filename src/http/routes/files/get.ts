import { clampLifetime, getFile, toFileView } from '../../../domain/files.ts';
import type { App, AppContext } from '../../context.ts';
import { keySecurity } from '../../kit/security.ts';
import { signer } from '../../kit/share-signer.ts';
import { Envelope, ok, Type } from '../../schema.ts';
import { ExpiresInSeconds, FileParams, FileSchema } from './schemas.ts';

const schema = {
  tags: ['files'],
  summary: 'One file',
  security: keySecurity,
  params: FileParams,
  querystring: Type.Object({ expiresInSeconds: ExpiresInSeconds }),
  response: { 200: Envelope(FileSchema) },
};

export function getFileRoute(app: App, ctx: AppContext): void {
  app.get(
    '/v2/workspaces/:workspaceId/files/:fileId',
    { config: { access: 'read' }, schema },
    async (request) => {
      const f = await getFile(ctx.db, request.params.workspaceId, request.params.fileId);
      return ok(toFileView(f, signer(ctx), clampLifetime(request.query.expiresInSeconds)));
    },
  );
}
