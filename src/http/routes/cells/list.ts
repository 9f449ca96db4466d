import { listTableCells } from '../../../domain/cells.ts';
import type { App, AppContext } from '../../context.ts';
import { CellSchema } from '../../kit/model-schemas.ts';
import { TableParams } from '../../kit/params.ts';
import { keySecurity } from '../../kit/security.ts';
import { Envelope, ok, Type } from '../../schema.ts';

const schema = {
  tags: ['cells'],
  summary: 'Cells of a table',
  description: 'Spec: interface.md 4.4.',
  security: keySecurity,
  params: TableParams,
  response: { 200: Envelope(Type.Array(CellSchema)) },
};

/** interface.md 4.4 (GET): unpaged, only cells that exist, `stale` computed here. */
export function listCellsRoute(app: App, ctx: AppContext): void {
  app.get(
    '/v2/workspaces/:workspaceId/tables/:tableId/cells',
    { config: { access: 'read' }, schema },
    async (request) => ok(await listTableCells(ctx.db, request.params.tableId)),
  );
}
