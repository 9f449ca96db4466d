import type { App, AppContext } from '../../context.ts';

/** v1 upload sessions (interface.md 4.8). */
export function registerUploadSessionRoutes(_app: App, _ctx: AppContext): void {}
