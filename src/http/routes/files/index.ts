import type { App, AppContext } from '../../context.ts';
import { deleteFileRoute } from './delete.ts';
import { deleteManyFilesRoute } from './delete-many.ts';
import { getFileRoute } from './get.ts';
import { getItemRoute } from './item.ts';
import { listItemsRoute } from './items.ts';
import { listFilesRoute } from './list.ts';
import { uploadFileRoute } from './upload.ts';

/** Files and their pages (interface.md 4.6, 4.7). */
export function registerFileRoutes(app: App, ctx: AppContext): void {
  for (const route of [
    uploadFileRoute,
    listFilesRoute,
    getFileRoute,
    listItemsRoute,
    getItemRoute,
    deleteFileRoute,
    deleteManyFilesRoute,
  ]) {
    route(app, ctx);
  }
}
