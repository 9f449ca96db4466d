import { listTableCells } from '../../../domain/cells.ts';
import { listTableColumns } from '../../../domain/columns.ts';
import { listTableRows } from '../../../domain/rows.ts';
import { getTable } from '../../../domain/tables.ts';
import type { App, AppContext } from '../../context.ts';
import { Envelope, ok, Type } from '../../schema.ts';
import { CellSchema, ColumnSchema, RowSchema } from './model-schemas.ts';
import { keySecurity, TableParams, TableSchema } from './schemas.ts';

const schema = {
  tags: ['tables'],
  summary: 'A table with its columns, rows and cells, unpaged, archived columns included',
  security: keySecurity,
  params: TableParams,
  response: {
    200: Envelope(
      Type.Object({
        table: TableSchema,
        columns: Type.Array(ColumnSchema),
        rows: Type.Array(RowSchema),
        cells: Type.Array(CellSchema),
      }),
    ),
  },
};

export function getTableRoute(app: App, ctx: AppContext): void {
  app.get(
    '/v2/workspaces/:workspaceId/tables/:tableId',
    { config: { access: 'read' }, schema },
    async (request) => {
      const { workspaceId, tableId } = request.params;
      const [table, columns, rows, cells] = await Promise.all([
        getTable(ctx.db, workspaceId, tableId),
        listTableColumns(ctx.db, tableId),
        listTableRows(ctx.db, tableId),
        listTableCells(ctx.db, tableId),
      ]);
      return ok({ table, columns, rows, cells });
    },
  );
}
