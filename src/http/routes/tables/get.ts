import { getTable } from '../../../domain/tables.ts';
import type { App, AppContext } from '../../context.ts';
import { Envelope, ok, Type } from '../../schema.ts';
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
        columns: Type.Array(Type.Object({}, { additionalProperties: true })),
        rows: Type.Array(Type.Object({}, { additionalProperties: true })),
        cells: Type.Array(Type.Object({}, { additionalProperties: true })),
      }),
    ),
  },
};

export function getTableRoute(app: App, ctx: AppContext): void {
  app.get(
    '/v2/workspaces/:workspaceId/tables/:tableId',
    { config: { access: 'read' }, schema },
    async (request) => {
      const table = await getTable(ctx.db, request.params.workspaceId, request.params.tableId);
      return ok({ table, columns: [], rows: [], cells: [] });
    },
  );
}
