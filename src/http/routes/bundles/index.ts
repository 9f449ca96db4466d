import type { App, AppContext } from '../../context.ts';
import { addBundleFilesRoute } from './add-files.ts';
import { archiveBundleRoute } from './archive.ts';
import { createBundleRoute } from './create.ts';
import { getBundleRoute } from './get.ts';
import { listBundlesRoute } from './list.ts';
import { patchBundleRoute } from './patch.ts';
import { patchBundleMemberRoute } from './patch-member.ts';
import { removeBundleMemberRoute } from './remove-member.ts';

/** interface.md 4.5. */
export function registerBundleRoutes(app: App, ctx: AppContext): void {
  for (const route of [
    listBundlesRoute,
    getBundleRoute,
    createBundleRoute,
    addBundleFilesRoute,
    patchBundleMemberRoute,
    removeBundleMemberRoute,
    patchBundleRoute,
    archiveBundleRoute,
  ]) {
    route(app, ctx);
  }
}
