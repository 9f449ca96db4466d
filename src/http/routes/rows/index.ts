import { addRow, archiveTableRow, listTableRows } from '../../../domain/rows.ts';
import type { App, AppContext } from '../../context.ts';
import { Body, Envelope, ok, Type } from '../../schema.ts';
import { RowParams, RowSchema } from '../tables/model-schemas.ts';
import { keySecurity, TableParams } from '../tables/schemas.ts';

const base = '/v2/workspaces/:workspaceId/tables/:tableId/rows';

/** decisions.md D2. */
export function registerRowRoutes(app: App, ctx: AppContext): void {
  const tags = ['rows'];
  app.get(
    base,
    {
      config: { access: 'read' },
      schema: {
        tags,
        summary: 'Rows, unpaged, archived included',
        security: keySecurity,
        params: TableParams,
        response: { 200: Envelope(Type.Array(RowSchema)) },
      },
    },
    async (request) => ok(await listTableRows(ctx.db, request.params.tableId)),
  );

  app.post(
    base,
    {
      config: { access: 'read_write' },
      schema: {
        tags,
        summary:
          'Add a row for a file or a bundle of this workspace (free; the same subject twice returns the existing row)',
        security: keySecurity,
        params: TableParams,
        body: Body({
          subjectType: Type.Union([Type.Literal('file'), Type.Literal('bundle')]),
          subjectId: Type.String({ minLength: 1, maxLength: 80 }),
          sortOrder: Type.Optional(Type.Integer({ minimum: 0, maximum: 2_147_483_647 })),
        }),
        response: { 200: Envelope(RowSchema) },
      },
    },
    async (request) =>
      ok(await addRow(ctx.db, request.params.workspaceId, request.params.tableId, request.body)),
  );

  app.delete(
    `${base}/:rowId`,
    {
      config: { access: 'read_write' },
      schema: {
        tags,
        summary: 'Archive a row; runs never target it again',
        security: keySecurity,
        params: RowParams,
        response: { 200: Envelope(RowSchema) },
      },
    },
    async (request) => ok(await archiveTableRow(ctx.db, request.params.tableId, request.params.rowId)),
  );
}
