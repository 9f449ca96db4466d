import { getBundle } from '../../../domain/bundles.ts';
import type { App, AppContext } from '../../context.ts';
import { keySecurity } from '../../kit/security.ts';
import { Envelope, ok } from '../../schema.ts';
import { BundleParams, WithFiles } from './schemas.ts';

const schema = {
  tags: ['bundles'],
  security: keySecurity,
  summary: 'A bundle and its members',
  description: 'Spec: interface.md 4.5.',
  params: BundleParams,
  response: { 200: Envelope(WithFiles) },
};

export function getBundleRoute(app: App, ctx: AppContext): void {
  app.get(
    '/v2/workspaces/:workspaceId/bundles/:bundleId',
    { config: { access: 'read' }, schema },
    async (request) => ok(await getBundle(ctx.db, request.params.workspaceId, request.params.bundleId)),
  );
}
