import type { App, AppContext } from '../../context.ts';
import { cancelRunRoute } from './cancel.ts';
import { cancelAllRunsRoute } from './cancel-all.ts';
import { getRunRoute } from './get.ts';
import { listRunsRoute } from './list.ts';
import { previewRunRoute } from './preview.ts';
import { startRunRoute } from './start.ts';

/** Runs (interface.md 4.3); the one-column run lives with the columns. */
export function registerRunRoutes(app: App, ctx: AppContext): void {
  for (const route of [
    previewRunRoute,
    startRunRoute,
    listRunsRoute,
    getRunRoute,
    cancelRunRoute,
    cancelAllRunsRoute,
  ]) {
    route(app, ctx);
  }
}
