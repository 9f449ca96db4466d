import { addBundleFiles } from '../../../domain/bundles.ts';
import type { App, AppContext } from '../../context.ts';
import { keySecurity } from '../../kit/security.ts';
import { Body, Envelope, EpochMs, Nullable, ok, Type } from '../../schema.ts';
import { BundleParams, FileIds, Role, WithFiles } from './schemas.ts';

const schema = {
  tags: ['bundles'],
  security: keySecurity,
  summary: 'Add 1-15 files, all or nothing; documentsVersion +1 when membership changes',
  description: 'Spec: interface.md 4.5.',
  params: BundleParams,
  body: Body({
    fileIds: FileIds(1),
    isPrimary: Type.Optional(Type.Boolean({ description: 'applies to the first id only' })),
    role: Type.Optional(Role),
    effectiveAt: Type.Optional(Nullable(EpochMs)),
  }),
  response: { 200: Envelope(WithFiles) },
};

export function addBundleFilesRoute(app: App, ctx: AppContext): void {
  app.post(
    '/v2/workspaces/:workspaceId/bundles/:bundleId/files',
    { config: { access: 'read_write', idempotent: true }, schema },
    async (request) =>
      ok(
        await addBundleFiles(
          ctx.db,
          request.params.workspaceId,
          request.params.bundleId,
          request.body,
          ctx.now,
        ),
      ),
  );
}
