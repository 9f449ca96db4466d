import type { App, AppContext } from '../../context.ts';
import { getJobRoute } from '../jobs/get.ts';
import { mintShareRoute } from '../share/mint.ts';
import { redeemShareRoute } from '../share/redeem.ts';
import { deleteFileRoutes } from './delete.ts';
import { getFileRoute } from './get.ts';
import { getItemRoute } from './item.ts';
import { listItemsRoute } from './items.ts';
import { listFilesRoute } from './list.ts';
import { uploadFileRoute } from './upload.ts';

/** Files, their pages, ingest jobs and share links (interface.md 4.6, 4.7; D7). */
export function registerFileRoutes(app: App, ctx: AppContext): void {
  for (const route of [
    uploadFileRoute,
    listFilesRoute,
    getFileRoute,
    listItemsRoute,
    getItemRoute,
    deleteFileRoutes,
    getJobRoute,
    mintShareRoute,
    redeemShareRoute,
  ]) {
    route(app, ctx);
  }
}
