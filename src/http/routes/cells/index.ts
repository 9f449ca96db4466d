import type { App, AppContext } from '../../context.ts';
import { listEventsRoute } from './events.ts';
import { listFactsRoute } from './facts.ts';
import { listCellsRoute } from './list.ts';
import { deleteOverrideRoute } from './override-delete.ts';
import { putOverrideRoute } from './override-put.ts';

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
