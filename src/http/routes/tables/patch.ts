import { patchTable } from '../../../domain/tables.ts';
import type { App, AppContext } from '../../context.ts';
import { TableParams } from '../../kit/params.ts';
import { keySecurity } from '../../kit/security.ts';
import { Body, Envelope, ok, Type } from '../../schema.ts';
import { TableFields, TableSchema } from './schemas.ts';

const schema = {
  tags: ['tables'],
  summary: 'Change name, standing, locale or color',
  description: 'Spec: interface.md 4.1.',
  security: keySecurity,
  params: TableParams,
  body: Body({
    name: Type.Optional(TableFields.name),
    standing: Type.Optional(TableFields.standing),
    locale: Type.Optional(TableFields.locale),
    color: Type.Optional(TableFields.color),
  }),
  response: { 200: Envelope(TableSchema) },
};

export function patchTableRoute(app: App, ctx: AppContext): void {
  app.patch(
    '/v2/workspaces/:workspaceId/tables/:tableId',
    { config: { access: 'read_write' }, schema },
    async (request) =>
      ok(await patchTable(ctx.db, request.params.workspaceId, request.params.tableId, request.body, ctx.now)),
  );
}
