import { removeBundleMember } from '../../../domain/bundles.ts';
import type { App, AppContext } from '../../context.ts';
import { keySecurity } from '../../kit/security.ts';
import { Type } from '../../schema.ts';
import { MemberParams } from './schemas.ts';

const schema = {
  tags: ['bundles'],
  security: keySecurity,
  summary: 'Remove a member (the file is untouched); documentsVersion +1',
  description: 'Spec: interface.md 4.5.',
  params: MemberParams,
  response: { 200: Type.Object({ success: Type.Boolean(), total: Type.Integer() }) },
};

export function removeBundleMemberRoute(app: App, ctx: AppContext): void {
  app.delete(
    '/v2/workspaces/:workspaceId/bundles/:bundleId/files/:fileId',
    { config: { access: 'read_write' }, schema },
    async (request) => {
      const { workspaceId, bundleId, fileId } = request.params;
      await removeBundleMember(ctx.db, workspaceId, bundleId, fileId, ctx.now);
      return { success: true, total: 1 };
    },
  );
}
