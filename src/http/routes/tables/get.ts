import type { FastifyReply } from 'fastify';
import type { App, AppContext } from '../../context.ts';
import { CellSchema, ColumnSchema, RowSchema } from '../../kit/model-schemas.ts';
import { TableParams } from '../../kit/params.ts';
import { keySecurity } from '../../kit/security.ts';
import { Envelope, Type } from '../../schema.ts';
import { TableSchema } from './schemas.ts';
import { readTableSnapshot } from './table-snapshot.ts';

const schema = {
  tags: ['tables'],
  summary: 'A table with its columns, rows and cells, unpaged, archived columns included',
  description:
    'Carries an ETag; send it back in If-None-Match to get 304 while nothing changed.' +
    ' Spec: interface.md 4.1.',
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
    async (request, reply) => {
      const { workspaceId, tableId } = request.params;
      const { entry } = await readTableSnapshot(ctx, workspaceId, tableId);
      // The body is already JSON: it goes out as bytes, past the schema serializer.
      const raw = reply as unknown as FastifyReply;
      raw.header('etag', entry.etag).header('cache-control', 'private, no-cache');
      if (request.headers['if-none-match'] === entry.etag) return raw.code(304).send();
      return raw.type('application/json; charset=utf-8').send(entry.body);
    },
  );
}
