import { listTableRows } from '../../../domain/rows.ts';
import type { App, AppContext } from '../../context.ts';
import { RowSchema } from '../../kit/model-schemas.ts';
import { TableParams } from '../../kit/params.ts';
import { keySecurity } from '../../kit/security.ts';
import { Envelope, ok, Type } from '../../schema.ts';

const schema = {
  tags: ['rows'],
  summary: 'Rows, unpaged, archived included',
  description: 'Spec: decisions.md D2.',
  security: keySecurity,
  params: TableParams,
  response: { 200: Envelope(Type.Array(RowSchema)) },
};

export function listRowsRoute(app: App, ctx: AppContext): void {
  app.get(
    '/v2/workspaces/:workspaceId/tables/:tableId/rows',
    { config: { access: 'read' }, schema },
    async (request) => ok(await listTableRows(ctx.db, request.params.tableId)),
  );
}
