import type { App, AppContext } from '../../context.ts';

/** v1 datasets, extract/vectorize uploads and v1 jobs (interface.md 4.8, 4.9). */
export function registerDatasetRoutes(_app: App, _ctx: AppContext): void {}
