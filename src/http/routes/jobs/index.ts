import type { App, AppContext } from '../../context.ts';
import { getJobRoute } from './get.ts';

/** Ingest jobs of v2 uploads (decisions.md D7); v1 jobs live with the datasets. */
export function registerJobRoutes(app: App, ctx: AppContext): void {
  getJobRoute(app, ctx);
}
