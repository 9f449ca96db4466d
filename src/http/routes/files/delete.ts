import { deleteFiles, getFile, SHARE_DEFAULT_SECONDS, toFileView } from '../../../domain/files.ts';
import type { App, AppContext } from '../../context.ts';
import { Body, Envelope, Id, ok, Type } from '../../schema.ts';
import { keySecurity, WorkspaceParams } from '../tables/schemas.ts';
import { signer } from './list.ts';
import { FileParams, FileSchema } from './schemas.ts';

const one = {
  tags: ['files'],
  summary: 'Delete a file: unreadable at once (share links too); bytes and pages removed in the background',
  security: keySecurity,
  params: FileParams,
  response: { 200: Envelope(FileSchema) },
};

const bulk = {
  tags: ['files'],
  summary: 'Delete 1-100 files, all or nothing; total is the count deleted',
  security: keySecurity,
  params: WorkspaceParams,
  body: Body({ fileIds: Type.Array(Id('ds'), { minItems: 1, maxItems: 100 }) }),
  response: { 200: Type.Object({ success: Type.Boolean(), total: Type.Integer() }) },
};

export function deleteFileRoutes(app: App, ctx: AppContext): void {
  app.delete(
    '/v2/workspaces/:workspaceId/files/:fileId',
    { config: { access: 'read_write' }, schema: one },
    async (request) => {
      const { workspaceId, fileId } = request.params;
      const f = await getFile(ctx.db, workspaceId, fileId);
      await deleteFiles(ctx.db, workspaceId, [fileId]);
      ctx.notifyWork();
      return ok(toFileView({ ...f, deleted_at: Date.now() }, signer(ctx), SHARE_DEFAULT_SECONDS));
    },
  );

  app.delete(
    '/v2/workspaces/:workspaceId/files',
    { config: { access: 'read_write' }, schema: bulk },
    async (request) => {
      const deleted = await deleteFiles(ctx.db, request.params.workspaceId, request.body.fileIds);
      ctx.notifyWork();
      return { success: true, total: deleted.length };
    },
  );
}
