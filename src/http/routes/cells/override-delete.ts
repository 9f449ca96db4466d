import { clearOverride } from '../../../domain/overrides.ts';
import type { App, AppContext } from '../../context.ts';
import { CellSchema } from '../../kit/model-schemas.ts';
import { keySecurity } from '../../kit/security.ts';
import { Envelope, ok } from '../../schema.ts';
import { CellParams, cellBase } from './schemas.ts';

const schema = {
  tags: ['cells'],
  summary:
    'Clear the human override (re-arms the cell for the next run); logs override_cleared. Idempotent: a cell without one is returned unchanged and logs nothing',
  description: 'Spec: interface.md 4.4.',
  security: keySecurity,
  params: CellParams,
  response: { 200: Envelope(CellSchema) },
};

/** interface.md 4.4, 3.2. */
export function deleteOverrideRoute(app: App, ctx: AppContext): void {
  app.delete(`${cellBase}/override`, { config: { access: 'read_write' }, schema }, async (request) =>
    ok(await clearOverride(ctx.db, request.params, request.principal!.keyId, ctx.now)),
  );
}
