import { archiveTableRow } from '../../../domain/rows.ts';
import type { App, AppContext } from '../../context.ts';
import { keySecurity } from '../../kit/security.ts';
import { Envelope, ok } from '../../schema.ts';
import { RowParams, RowSchema } from '../tables/model-schemas.ts';

const schema = {
  tags: ['rows'],
  summary: 'Archive a row; runs never target it again',
  security: keySecurity,
  params: RowParams,
  response: { 200: Envelope(RowSchema) },
};

export function archiveRowRoute(app: App, ctx: AppContext): void {
  app.delete(
    '/v2/workspaces/:workspaceId/tables/:tableId/rows/:rowId',
    { config: { access: 'read_write' }, schema },
    async (request) => ok(await archiveTableRow(ctx.db, request.params.tableId, request.params.rowId)),
  );
}
