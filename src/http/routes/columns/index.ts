import type { App, AppContext } from '../../context.ts';
import { archiveColumnRoute } from './archive.ts';
import { createColumnRoute } from './create.ts';
import { listColumnsRoute } from './list.ts';
import { patchColumnRoute } from './patch.ts';
import { runColumnRoute } from './run.ts';

/** interface.md 4.2. */
export function registerColumnRoutes(app: App, ctx: AppContext): void {
  for (const route of [
    listColumnsRoute,
    createColumnRoute,
    patchColumnRoute,
    archiveColumnRoute,
    runColumnRoute,
  ]) {
    route(app, ctx);
  }
}
