import { patchColumn } from '../../../domain/columns.ts';
import type { App, AppContext } from '../../context.ts';
import { keySecurity } from '../../kit/security.ts';
import { Body, Envelope, ok } from '../../schema.ts';
import { ColumnParams, ColumnSchema } from '../tables/model-schemas.ts';
import { OptionalColumnFields } from './schemas.ts';

const schema = {
  tags: ['columns'],
  summary: 'Change a column; a different prompt or outputType bumps its version',
  security: keySecurity,
  params: ColumnParams,
  body: Body(OptionalColumnFields),
  response: { 200: Envelope(ColumnSchema) },
};

export function patchColumnRoute(app: App, ctx: AppContext): void {
  app.patch(
    '/v2/workspaces/:workspaceId/tables/:tableId/columns/:columnId',
    { config: { access: 'read_write' }, schema },
    async (request) => {
      const { workspaceId, tableId, columnId } = request.params;
      return ok(await patchColumn(ctx.db, workspaceId, tableId, columnId, request.body));
    },
  );
}
