import { createBundle } from '../../../domain/bundles.ts';
import type { App, AppContext } from '../../context.ts';
import { WorkspaceParams } from '../../kit/params.ts';
import { keySecurity } from '../../kit/security.ts';
import { Body, Envelope, ok, Type } from '../../schema.ts';
import { BundleSchema, Color, FileIds, Name } from './schemas.ts';

const schema = {
  tags: ['bundles'],
  security: keySecurity,
  summary: 'Create a bundle; the first file is primary, files take sortOrder in the order given',
  description: 'Spec: interface.md 4.5.',
  params: WorkspaceParams,
  body: Body({ name: Name, fileIds: Type.Optional(FileIds(0)), color: Type.Optional(Color) }),
  response: { 200: Envelope(BundleSchema) },
};

export function createBundleRoute(app: App, ctx: AppContext): void {
  app.post(
    '/v2/workspaces/:workspaceId/bundles',
    { config: { access: 'read_write', idempotent: true }, schema },
    async (request) => ok(await createBundle(ctx.db, request.params.workspaceId, request.body, ctx.now)),
  );
}
