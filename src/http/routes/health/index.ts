import type { App, AppContext } from '../../context.ts';
import { healthCheckRoute } from './check.ts';

export function registerHealthRoutes(app: App, ctx: AppContext): void {
  healthCheckRoute(app, ctx);
}
