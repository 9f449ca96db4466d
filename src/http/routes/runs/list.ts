import { listTableRuns } from '../../../domain/runs.ts';
import type { App, AppContext } from '../../context.ts';
import { TableParams } from '../../kit/params.ts';
import { keySecurity } from '../../kit/security.ts';
import { Envelope, ok, Type } from '../../schema.ts';
import { RunSchema } from './schemas.ts';

const schema = {
  tags: ['runs'],
  summary: 'Every run of the table, newest first',
  description: 'Spec: interface.md 4.3.',
  security: keySecurity,
  params: TableParams,
  response: { 200: Envelope(Type.Array(RunSchema)) },
};

export function listRunsRoute(app: App, ctx: AppContext): void {
  app.get(
    '/v2/workspaces/:workspaceId/tables/:tableId/runs',
    { config: { access: 'read' }, schema },
    async (request) => ok(await listTableRuns(ctx.db, request.params.tableId)),
  );
}
