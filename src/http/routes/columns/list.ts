import { listTableColumns } from '../../../domain/columns.ts';
import type { App, AppContext } from '../../context.ts';
import { ColumnSchema } from '../../kit/model-schemas.ts';
import { TableParams } from '../../kit/params.ts';
import { keySecurity } from '../../kit/security.ts';
import { Envelope, ok, Type } from '../../schema.ts';

const schema = {
  tags: ['columns'],
  summary: 'Columns ordered by sortOrder, archived included',
  description: 'Spec: interface.md 4.2.',
  security: keySecurity,
  params: TableParams,
  response: { 200: Envelope(Type.Array(ColumnSchema)) },
};

export function listColumnsRoute(app: App, ctx: AppContext): void {
  app.get(
    '/v2/workspaces/:workspaceId/tables/:tableId/columns',
    { config: { access: 'read' }, schema },
    async (request) => ok(await listTableColumns(ctx.db, request.params.tableId)),
  );
}
