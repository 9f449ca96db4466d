import { deleteFiles, getFile, SHARE_DEFAULT_SECONDS, toFileView } from '../../../domain/files.ts';
import type { App, AppContext } from '../../context.ts';
import { FileSchema } from '../../kit/file-schemas.ts';
import { keySecurity } from '../../kit/security.ts';
import { signer } from '../../kit/share-signer.ts';
import { Envelope, ok } from '../../schema.ts';
import { FileParams } from './schemas.ts';

const schema = {
  tags: ['files'],
  summary: 'Delete a file: unreadable at once (share links too); bytes and pages removed in the background',
  description: 'Spec: interface.md 4.6.',
  security: keySecurity,
  params: FileParams,
  response: { 200: Envelope(FileSchema) },
};

export function deleteFileRoute(app: App, ctx: AppContext): void {
  app.delete(
    '/v2/workspaces/:workspaceId/files/:fileId',
    { config: { access: 'read_write' }, schema },
    async (request) => {
      const { workspaceId, fileId } = request.params;
      const f = await getFile(ctx.db, workspaceId, fileId, ctx.now());
      await deleteFiles(ctx.db, workspaceId, [fileId], ctx.now);
      ctx.notifyWork();
      return ok(toFileView({ ...f, deleted_at: ctx.now() }, signer(ctx), SHARE_DEFAULT_SECONDS));
    },
  );
}
