import type { App, AppContext } from '../../context.ts';
import { createKeyRoute } from './create-key.ts';
import { createWorkspaceRoute } from './create-workspace.ts';
import { getWorkspaceRoute } from './get-workspace.ts';
import { grantCreditsRoute } from './grant-credits.ts';
import { patchWorkspaceRoute } from './patch-workspace.ts';
import { revokeKeyRoute } from './revoke-key.ts';

/** decisions.md D1: guarded by x-admin-token; absent ADMIN_TOKEN makes every route 404. */
export function registerAdminRoutes(app: App, ctx: AppContext): void {
  for (const route of [
    createWorkspaceRoute,
    getWorkspaceRoute,
    patchWorkspaceRoute,
    grantCreditsRoute,
    createKeyRoute,
    revokeKeyRoute,
  ]) {
    route(app, ctx);
  }
}
