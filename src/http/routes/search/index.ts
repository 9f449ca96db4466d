import type { App, AppContext } from '../../context.ts';

/** v1 page search (interface.md 4.9, D6). */
export function registerSearchRoutes(_app: App, _ctx: AppContext): void {}
