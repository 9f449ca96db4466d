import { createColumn } from '../../../domain/columns.ts';
import type { App, AppContext } from '../../context.ts';
import { ColumnSchema } from '../../kit/model-schemas.ts';
import { TableParams } from '../../kit/params.ts';
import { keySecurity } from '../../kit/security.ts';
import { Body, Envelope, ok } from '../../schema.ts';
import { ColumnFields, OptionalColumnFields } from './schemas.ts';

const schema = {
  tags: ['columns'],
  summary: 'Create a column (free; creates no cells)',
  description: 'Spec: interface.md 4.2.',
  security: keySecurity,
  params: TableParams,
  body: Body({ ...OptionalColumnFields, name: ColumnFields.name, prompt: ColumnFields.prompt }),
  response: { 200: Envelope(ColumnSchema) },
};

export function createColumnRoute(app: App, ctx: AppContext): void {
  app.post(
    '/v2/workspaces/:workspaceId/tables/:tableId/columns',
    { config: { access: 'read_write', idempotent: true }, schema },
    async (request) =>
      ok(
        await createColumn(ctx.db, request.params.workspaceId, request.params.tableId, request.body, ctx.now),
      ),
  );
}
