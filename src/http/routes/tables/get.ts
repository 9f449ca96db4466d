import type { FastifyReply } from 'fastify';
import { listTableCells } from '../../../domain/cells.ts';
import { listTableColumns } from '../../../domain/columns.ts';
import { listTableRows } from '../../../domain/rows.ts';
import { getTable } from '../../../domain/tables.ts';
import { tableFingerprint } from '../../../infra/repos/table-fingerprint.ts';
import type { App, AppContext } from '../../context.ts';
import { Envelope, ok, Type } from '../../schema.ts';
import { CellSchema, ColumnSchema, RowSchema } from './model-schemas.ts';
import { keySecurity, TableParams, TableSchema } from './schemas.ts';
import { SnapshotCache } from './snapshot-cache.ts';

const schema = {
  tags: ['tables'],
  summary: 'A table with its columns, rows and cells, unpaged, archived columns included',
  description: 'Carries an ETag; send it back in If-None-Match to get 304 while nothing changed.',
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
  const cache = new SnapshotCache(256 * 1024 * 1024);
  app.get(
    '/v2/workspaces/:workspaceId/tables/:tableId',
    { config: { access: 'read' }, schema },
    async (request, reply) => {
      const { workspaceId, tableId } = request.params;
      // Fingerprint and content come from one snapshot: a body is never filed under a newer state.
      const { fingerprint, body } = await ctx.db.transaction(async (tx) => {
        await tx.query('SET TRANSACTION ISOLATION LEVEL REPEATABLE READ, READ ONLY');
        const fp = await tableFingerprint(tx, tableId);
        const hit = cache.get(tableId, fp);
        if (hit) return { fingerprint: fp, body: null };
        const table = await getTable(tx, workspaceId, tableId);
        const columns = await listTableColumns(tx, tableId);
        const rows = await listTableRows(tx, tableId);
        const cells = await listTableCells(tx, tableId);
        return { fingerprint: fp, body: Buffer.from(JSON.stringify(ok({ table, columns, rows, cells }))) };
      });
      const entry = body
        ? { body, etag: cache.set(tableId, fingerprint, body) }
        : cache.get(tableId, fingerprint)!;
      // The body is already JSON: it goes out as bytes, past the schema serializer.
      const raw = reply as unknown as FastifyReply;
      raw.header('etag', entry.etag).header('cache-control', 'private, no-cache');
      if (request.headers['if-none-match'] === entry.etag) return raw.code(304).send();
      return raw.type('application/json; charset=utf-8').send(entry.body);
    },
  );
}
