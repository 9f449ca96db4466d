import { deleteFiles } from '../../../domain/files.ts';
import type { App, AppContext } from '../../context.ts';
import { WorkspaceParams } from '../../kit/params.ts';
import { keySecurity } from '../../kit/security.ts';
import { Body, Id, Type } from '../../schema.ts';

const schema = {
  tags: ['files'],
  summary: 'Delete 1-100 files, all or nothing; total is the count deleted',
  description: 'Spec: interface.md 4.6.',
  security: keySecurity,
  params: WorkspaceParams,
  body: Body({ fileIds: Type.Array(Id('ds'), { minItems: 1, maxItems: 100 }) }),
  response: { 200: Type.Object({ success: Type.Boolean(), total: Type.Integer() }) },
};

export function deleteManyFilesRoute(app: App, ctx: AppContext): void {
  app.delete(
    '/v2/workspaces/:workspaceId/files',
    { config: { access: 'read_write' }, schema },
    async (request) => {
      const deleted = await deleteFiles(ctx.db, request.params.workspaceId, request.body.fileIds, ctx.now);
      ctx.notifyWork();
      return { success: true, total: deleted.length };
    },
  );
}
