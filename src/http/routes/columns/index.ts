import { archiveColumn, createColumn, listTableColumns, patchColumn } from '../../../domain/columns.ts';
import type { App, AppContext } from '../../context.ts';
import { Body, Envelope, ok, Type } from '../../schema.ts';
import { ColumnFields, ColumnParams, ColumnSchema } from '../tables/model-schemas.ts';
import { keySecurity, TableParams } from '../tables/schemas.ts';
import { runColumnRoute } from './run.ts';

const base = '/v2/workspaces/:workspaceId/tables/:tableId/columns';
const optional = Object.fromEntries(Object.entries(ColumnFields).map(([k, v]) => [k, Type.Optional(v)])) as {
  [K in keyof typeof ColumnFields]: ReturnType<typeof Type.Optional<(typeof ColumnFields)[K]>>;
};

/** interface.md 4.2. */
export function registerColumnRoutes(app: App, ctx: AppContext): void {
  const tags = ['columns'];
  app.get(
    base,
    {
      config: { access: 'read' },
      schema: {
        tags,
        summary: 'Columns ordered by sortOrder, archived included',
        security: keySecurity,
        params: TableParams,
        response: { 200: Envelope(Type.Array(ColumnSchema)) },
      },
    },
    async (request) => ok(await listTableColumns(ctx.db, request.params.tableId)),
  );

  app.post(
    base,
    {
      config: { access: 'read_write' },
      schema: {
        tags,
        summary: 'Create a column (free; creates no cells)',
        security: keySecurity,
        params: TableParams,
        body: Body({ ...optional, name: ColumnFields.name, prompt: ColumnFields.prompt }),
        response: { 200: Envelope(ColumnSchema) },
      },
    },
    async (request) =>
      ok(await createColumn(ctx.db, request.params.workspaceId, request.params.tableId, request.body)),
  );

  app.patch(
    `${base}/:columnId`,
    {
      config: { access: 'read_write' },
      schema: {
        tags,
        summary: 'Change a column; a different prompt or outputType bumps its version',
        security: keySecurity,
        params: ColumnParams,
        body: Body(optional),
        response: { 200: Envelope(ColumnSchema) },
      },
    },
    async (request) => {
      const { workspaceId, tableId, columnId } = request.params;
      return ok(await patchColumn(ctx.db, workspaceId, tableId, columnId, request.body));
    },
  );

  app.delete(
    `${base}/:columnId`,
    {
      config: { access: 'read_write' },
      schema: {
        tags,
        summary: 'Archive a column',
        security: keySecurity,
        params: ColumnParams,
        response: { 200: Envelope(ColumnSchema) },
      },
    },
    async (request) => {
      const { workspaceId, tableId, columnId } = request.params;
      return ok(await archiveColumn(ctx.db, workspaceId, tableId, columnId));
    },
  );
  runColumnRoute(app, ctx);
}
