import type { App, AppContext } from '../../context.ts';
import { scrapeMetricsRoute } from './scrape.ts';

/** Prometheus metrics for operators (issue 17; README "Metrics"). */
export function registerMetricsRoutes(app: App, ctx: AppContext): void {
  scrapeMetricsRoute(app, ctx);
}
