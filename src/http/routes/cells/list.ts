import { Readable } from 'node:stream';
import type { FastifyReply } from 'fastify';
import type { App, AppContext } from '../../context.ts';
import { CellSchema } from '../../kit/model-schemas.ts';
import { TableParams } from '../../kit/params.ts';
import { keySecurity } from '../../kit/security.ts';
import { Envelope, Type } from '../../schema.ts';
import { cellsOfBody, readTableSnapshot } from '../tables/table-snapshot.ts';

const schema = {
  tags: ['cells'],
  summary: 'Cells of a table',
  description: 'Spec: interface.md 4.4.',
  security: keySecurity,
  params: TableParams,
  response: { 200: Envelope(Type.Array(CellSchema)) },
};

const CLOSE = Buffer.from(']}');

/**
 * interface.md 4.4 (GET): unpaged, only cells that exist, `stale` computed, in GET table's order.
 * The cells are the bytes GET table (4.1) serves for them, taken from the same body (built, or
 * filed in the shared cache): each row's cells as the database writes them
 * (repos cells.listRowCellsJson), in the envelope `ok()` would write, never parsed or serialized here.
 */
export function listCellsRoute(app: App, ctx: AppContext): void {
  app.get(
    '/v2/workspaces/:workspaceId/tables/:tableId/cells',
    { config: { access: 'read' }, schema },
    async (request, reply) => {
      const { workspaceId, tableId } = request.params;
      const { entry, cellCount } = await readTableSnapshot(ctx, workspaceId, tableId);
      const open = Buffer.from(`{"success":true,"total":${cellCount},"data":[`);
      const cells = cellsOfBody(entry);
      // Three pieces, the cells a view of the filed body: no copy of tens of MB per request.
      const raw = reply as unknown as FastifyReply;
      return raw
        .type('application/json; charset=utf-8')
        .header('content-length', open.length + cells.length + CLOSE.length)
        .send(Readable.from([open, cells, CLOSE]));
    },
  );
}
