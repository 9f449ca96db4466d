import type { App, AppContext } from '../../context.ts';
import { addRowRoute } from './add.ts';
import { archiveRowRoute } from './archive.ts';
import { listRowsRoute } from './list.ts';

/** decisions.md D2. */
export function registerRowRoutes(app: App, ctx: AppContext): void {
  for (const route of [listRowsRoute, addRowRoute, archiveRowRoute]) {
    route(app, ctx);
  }
}
