import { clampLifetime, listFiles, toFileView } from '../../../domain/files.ts';
import type { App, AppContext } from '../../context.ts';
import { FileSchema, PagedEnvelope } from '../../kit/file-schemas.ts';
import { WorkspaceParams } from '../../kit/params.ts';
import { keySecurity } from '../../kit/security.ts';
import { signer } from '../../kit/share-signer.ts';
import { okPage, Type } from '../../schema.ts';
import { ListQuery } from './schemas.ts';

const schema = {
  tags: ['files'],
  summary: 'List files, newest first by default; each carries a share link',
  description: 'Spec: interface.md 4.6.',
  security: keySecurity,
  params: WorkspaceParams,
  querystring: Type.Object({ types: Type.Optional(Type.String({ maxLength: 100 })), ...ListQuery }),
  response: { 200: PagedEnvelope(Type.Array(FileSchema)) },
};

export function listFilesRoute(app: App, ctx: AppContext): void {
  app.get('/v2/workspaces/:workspaceId/files', { config: { access: 'read' }, schema }, async (request) => {
    const q = request.query;
    const res = await listFiles(ctx.db, request.params.workspaceId, q, ctx.now());
    const life = clampLifetime(q.expiresInSeconds);
    return okPage(res, (f) => toFileView(f, signer(ctx), life));
  });
}
