import { patchColumn } from '../../../domain/columns.ts';
import type { App, AppContext } from '../../context.ts';
import { ColumnSchema } from '../../kit/model-schemas.ts';
import { keySecurity } from '../../kit/security.ts';
import { Body, Envelope, ok } from '../../schema.ts';
import { ColumnParams, OptionalColumnFields } from './schemas.ts';

const schema = {
  tags: ['columns'],
  summary: 'Change a column; a different prompt or outputType bumps its version',
  description: 'Spec: interface.md 4.2.',
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
      return ok(await patchColumn(ctx.db, workspaceId, tableId, columnId, request.body, ctx.now));
    },
  );
}
