import { clampLifetime, getFile, toFileView } from '../../../domain/files.ts';
import type { App, AppContext } from '../../context.ts';
import { ExpiresInSeconds, FileSchema } from '../../kit/file-schemas.ts';
import { keySecurity } from '../../kit/security.ts';
import { signer } from '../../kit/share-signer.ts';
import { Envelope, ok, Type } from '../../schema.ts';
import { FileParams } from './schemas.ts';

const schema = {
  tags: ['files'],
  summary: 'One file',
  description: 'Spec: interface.md 4.6.',
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
      const f = await getFile(ctx.db, request.params.workspaceId, request.params.fileId, ctx.now());
      return ok(toFileView(f, signer(ctx), clampLifetime(request.query.expiresInSeconds)));
    },
  );
}
