import { archiveTable } from '../../../domain/tables.ts';
import type { App, AppContext } from '../../context.ts';
import { TableParams } from '../../kit/params.ts';
import { keySecurity } from '../../kit/security.ts';
import { Envelope, ok } from '../../schema.ts';
import { TableSchema } from './schemas.ts';

const schema = {
  tags: ['tables'],
  summary: 'Archive a table (sets archivedAt; there is no un-archive)',
  description: 'Spec: interface.md 4.1.',
  security: keySecurity,
  params: TableParams,
  response: { 200: Envelope(TableSchema) },
};

export function archiveTableRoute(app: App, ctx: AppContext): void {
  app.delete(
    '/v2/workspaces/:workspaceId/tables/:tableId',
    { config: { access: 'read_write' }, schema },
    async (request) =>
      ok(await archiveTable(ctx.db, request.params.workspaceId, request.params.tableId, ctx.now)),
  );
}
