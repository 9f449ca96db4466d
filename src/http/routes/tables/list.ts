import { listWorkspaceTables } from '../../../domain/tables.ts';
import type { App, AppContext } from '../../context.ts';
import { WorkspaceParams } from '../../kit/params.ts';
import { keySecurity } from '../../kit/security.ts';
import { Envelope, ok, Type } from '../../schema.ts';
import { TableSchema } from './schemas.ts';

const schema = {
  tags: ['tables'],
  summary: 'List tables (metadata only), newest first, archived included',
  description: 'Spec: interface.md 4.1.',
  security: keySecurity,
  params: WorkspaceParams,
  response: { 200: Envelope(Type.Array(TableSchema)) },
};

export function listTablesRoute(app: App, ctx: AppContext): void {
  app.get('/v2/workspaces/:workspaceId/tables', { config: { access: 'read' }, schema }, async (request) =>
    ok(await listWorkspaceTables(ctx.db, request.params.workspaceId)),
  );
}
