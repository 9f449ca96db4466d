import { patchBundle } from '../../../domain/bundles.ts';
import type { App, AppContext } from '../../context.ts';
import { keySecurity } from '../../kit/security.ts';
import { Body, Envelope, ok, Type } from '../../schema.ts';
import { BundleParams, BundleSchema, Color, Name } from './schemas.ts';

const schema = {
  tags: ['bundles'],
  security: keySecurity,
  summary: 'Rename or recolour (no version bump)',
  description: 'Spec: interface.md 4.5.',
  params: BundleParams,
  body: Body({ name: Type.Optional(Name), color: Type.Optional(Color) }),
  response: { 200: Envelope(BundleSchema) },
};

export function patchBundleRoute(app: App, ctx: AppContext): void {
  app.patch(
    '/v2/workspaces/:workspaceId/bundles/:bundleId',
    { config: { access: 'read_write' }, schema },
    async (request) =>
      ok(
        await patchBundle(ctx.db, request.params.workspaceId, request.params.bundleId, request.body, ctx.now),
      ),
  );
}
