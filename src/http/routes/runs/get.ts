import { getRun } from '../../../domain/runs.ts';
import type { App, AppContext } from '../../context.ts';
import { keySecurity } from '../../kit/security.ts';
import { Envelope, ok } from '../../schema.ts';
import { RunParams, RunSchema } from './schemas.ts';

const schema = {
  tags: ['runs'],
  summary: 'One run (the polling endpoint: totalCells, pendingCells)',
  description: 'Spec: interface.md 4.3.',
  security: keySecurity,
  params: RunParams,
  response: { 200: Envelope(RunSchema) },
};

export function getRunRoute(app: App, ctx: AppContext): void {
  app.get(
    '/v2/workspaces/:workspaceId/tables/:tableId/runs/:runId',
    { config: { access: 'read' }, schema },
    async (request) => ok(await getRun(ctx.db, request.params.tableId, request.params.runId)),
  );
}
