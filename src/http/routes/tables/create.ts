import { createTable } from '../../../domain/tables.ts';
import type { App, AppContext } from '../../context.ts';
import { WorkspaceParams } from '../../kit/params.ts';
import { keySecurity } from '../../kit/security.ts';
import { Body, Envelope, ok, Type } from '../../schema.ts';
import { TableFields, TableSchema } from './schemas.ts';

const schema = {
  tags: ['tables'],
  summary: 'Create a table (free)',
  description: 'Spec: interface.md 4.1.',
  security: keySecurity,
  params: WorkspaceParams,
  body: Body({
    name: TableFields.name,
    standing: Type.Optional(TableFields.standing),
    locale: Type.Optional(TableFields.locale),
    color: Type.Optional(TableFields.color),
  }),
  response: { 200: Envelope(TableSchema) },
};

export function createTableRoute(app: App, ctx: AppContext): void {
  app.post(
    '/v2/workspaces/:workspaceId/tables',
    { config: { access: 'read_write', idempotent: true }, schema },
    async (request) => ok(await createTable(ctx.db, request.params.workspaceId, request.body, ctx.now())),
  );
}
