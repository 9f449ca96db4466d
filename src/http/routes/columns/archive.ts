import { archiveColumn } from '../../../domain/columns.ts';
import type { App, AppContext } from '../../context.ts';
import { ColumnSchema } from '../../kit/model-schemas.ts';
import { keySecurity } from '../../kit/security.ts';
import { Envelope, ok } from '../../schema.ts';
import { ColumnParams } from './schemas.ts';

const schema = {
  tags: ['columns'],
  summary: 'Archive a column',
  description: 'Spec: interface.md 4.2.',
  security: keySecurity,
  params: ColumnParams,
  response: { 200: Envelope(ColumnSchema) },
};

export function archiveColumnRoute(app: App, ctx: AppContext): void {
  app.delete(
    '/v2/workspaces/:workspaceId/tables/:tableId/columns/:columnId',
    { config: { access: 'read_write' }, schema },
    async (request) => {
      const { workspaceId, tableId, columnId } = request.params;
      return ok(await archiveColumn(ctx.db, workspaceId, tableId, columnId, ctx.now));
    },
  );
}
