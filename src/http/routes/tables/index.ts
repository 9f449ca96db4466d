import type { App, AppContext } from '../../context.ts';
import { archiveTableRoute } from './archive.ts';
import { createTableRoute } from './create.ts';
import { exportTableRoute } from './export.ts';
import { getTableRoute } from './get.ts';
import { listTablesRoute } from './list.ts';
import { patchTableRoute } from './patch.ts';

export function registerTableRoutes(app: App, ctx: AppContext): void {
  for (const route of [
    listTablesRoute,
    getTableRoute,
    createTableRoute,
    patchTableRoute,
    archiveTableRoute,
    exportTableRoute,
  ]) {
    route(app, ctx);
  }
}
