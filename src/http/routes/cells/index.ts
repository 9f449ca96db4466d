import { listTableCells } from '../../../domain/cells.ts';
import type { App, AppContext } from '../../context.ts';
import { Envelope, ok, Type } from '../../schema.ts';
import { CellSchema } from '../tables/model-schemas.ts';
import { keySecurity, TableParams } from '../tables/schemas.ts';
import { listEventsRoute } from './events.ts';
import { listFactsRoute } from './facts.ts';
import { deleteOverrideRoute } from './override-delete.ts';
import { putOverrideRoute } from './override-put.ts';

/** interface.md 4.4 (GET): unpaged, only cells that exist, `stale` computed here. */
function listCellsRoute(app: App, ctx: AppContext): void {
  app.get(
    '/v2/workspaces/:workspaceId/tables/:tableId/cells',
    {
      config: { access: 'read' },
      schema: {
        tags: ['cells'],
        summary: 'Cells of a table',
        security: keySecurity,
        params: TableParams,
        response: { 200: Envelope(Type.Array(CellSchema)) },
      },
    },
    async (request) => ok(await listTableCells(ctx.db, request.params.tableId)),
  );
}

/** interface.md 4.4: cells, their overrides, event log and facts. */
export function registerCellRoutes(app: App, ctx: AppContext): void {
  for (const route of [
    listCellsRoute,
    putOverrideRoute,
    deleteOverrideRoute,
    listEventsRoute,
    listFactsRoute,
  ]) {
    route(app, ctx);
  }
}
