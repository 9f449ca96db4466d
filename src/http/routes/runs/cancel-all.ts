import { cancelAllRuns } from '../../../domain/runs.ts';
import type { App, AppContext } from '../../context.ts';
import { TableParams } from '../../kit/params.ts';
import { keySecurity } from '../../kit/security.ts';
import { Envelope, ok, Type } from '../../schema.ts';
import { RunSchema } from './schemas.ts';

const schema = {
  tags: ['runs'],
  summary: 'Cancel every unfinished run of the table',
  description: 'Spec: interface.md 4.3.',
  security: keySecurity,
  params: TableParams,
  response: { 200: Envelope(Type.Object({ canceled: Type.Integer(), runs: Type.Array(RunSchema) })) },
};

export function cancelAllRunsRoute(app: App, ctx: AppContext): void {
  app.post(
    '/v2/workspaces/:workspaceId/tables/:tableId/runs/cancel',
    { config: { access: 'read_write' }, schema },
    async (request) => ok(await cancelAllRuns(ctx.db, request.params.tableId, ctx.now)),
  );
}
