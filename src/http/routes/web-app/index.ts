import type { App, AppContext } from '../../context.ts';

/** the single-page web app served at /app. */
export async function registerWebAppRoutes(_app: App, _ctx: AppContext): Promise<void> {}
