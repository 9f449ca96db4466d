import { patchBundleMember } from '../../../domain/bundles.ts';
import type { App, AppContext } from '../../context.ts';
import { keySecurity } from '../../kit/security.ts';
import { Body, Envelope, EpochMs, Nullable, ok, Type } from '../../schema.ts';
import { MemberParams, MemberSchema, Role } from './schemas.ts';

const schema = {
  tags: ['bundles'],
  security: keySecurity,
  summary: 'Change a member; making one primary clears the other',
  description: 'Spec: interface.md 4.5.',
  params: MemberParams,
  body: Body({
    isPrimary: Type.Optional(Type.Boolean()),
    role: Type.Optional(Role),
    effectiveAt: Type.Optional(Nullable(EpochMs)),
    sortOrder: Type.Optional(Type.Integer({ minimum: 0, maximum: 2_147_483_647 })),
  }),
  response: { 200: Envelope(MemberSchema) },
};

export function patchBundleMemberRoute(app: App, ctx: AppContext): void {
  app.patch(
    '/v2/workspaces/:workspaceId/bundles/:bundleId/files/:fileId',
    { config: { access: 'read_write' }, schema },
    async (request) => {
      const { workspaceId, bundleId, fileId } = request.params;
      return ok(await patchBundleMember(ctx.db, workspaceId, bundleId, fileId, request.body, ctx.now));
    },
  );
}
