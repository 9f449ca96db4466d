import { cancelRun } from '../../../domain/runs.ts';
import type { App, AppContext } from '../../context.ts';
import { keySecurity } from '../../kit/security.ts';
import { Envelope, ok } from '../../schema.ts';
import { RunParams, RunSchema } from './schemas.ts';

const schema = {
  tags: ['runs'],
  summary: 'Cancel a run (409 when it already finished)',
  description: 'Spec: interface.md 4.3.',
  security: keySecurity,
  params: RunParams,
  response: { 200: Envelope(RunSchema) },
};

/** 4.3 rule 7: any Read & write key may cancel any run, the auto-mode sweep's included. */
export function cancelRunRoute(app: App, ctx: AppContext): void {
  app.post(
    '/v2/workspaces/:workspaceId/tables/:tableId/runs/:runId/cancel',
    { config: { access: 'read_write' }, schema },
    async (request) => ok(await cancelRun(ctx.db, request.params.tableId, request.params.runId, ctx.now)),
  );
}
