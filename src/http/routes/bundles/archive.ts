import { archiveBundle } from '../../../domain/bundles.ts';
import type { App, AppContext } from '../../context.ts';
import { keySecurity } from '../../kit/security.ts';
import { Envelope, ok } from '../../schema.ts';
import { BundleParams, BundleSchema } from './schemas.ts';

const schema = {
  tags: ['bundles'],
  security: keySecurity,
  summary: 'Archive a bundle',
  description: 'Spec: interface.md 4.5.',
  params: BundleParams,
  response: { 200: Envelope(BundleSchema) },
};

export function archiveBundleRoute(app: App, ctx: AppContext): void {
  app.delete(
    '/v2/workspaces/:workspaceId/bundles/:bundleId',
    { config: { access: 'read_write' }, schema },
    async (request) =>
      ok(await archiveBundle(ctx.db, request.params.workspaceId, request.params.bundleId, ctx.now)),
  );
}
