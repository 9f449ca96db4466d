import { archiveTableRow } from '../../../domain/rows.ts';
import type { App, AppContext } from '../../context.ts';
import { RowSchema } from '../../kit/model-schemas.ts';
import { keySecurity } from '../../kit/security.ts';
import { Envelope, ok } from '../../schema.ts';
import { RowParams } from './schemas.ts';

const schema = {
  tags: ['rows'],
  summary: 'Archive a row; runs never target it again',
  description: 'Spec: decisions.md D2.',
  security: keySecurity,
  params: RowParams,
  response: { 200: Envelope(RowSchema) },
};

export function archiveRowRoute(app: App, ctx: AppContext): void {
  app.delete(
    '/v2/workspaces/:workspaceId/tables/:tableId/rows/:rowId',
    { config: { access: 'read_write' }, schema },
    async (request) =>
      ok(await archiveTableRow(ctx.db, request.params.tableId, request.params.rowId, ctx.now)),
  );
}
