import { listTableColumns } from '../../../domain/columns.ts';
import type { App, AppContext } from '../../context.ts';
import { keySecurity } from '../../kit/security.ts';
import { Envelope, ok, Type } from '../../schema.ts';
import { ColumnSchema } from '../tables/model-schemas.ts';
import { TableParams } from '../tables/schemas.ts';

const schema = {
  tags: ['columns'],
  summary: 'Columns ordered by sortOrder, archived included',
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
