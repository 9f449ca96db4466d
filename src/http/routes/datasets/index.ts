import type { App, AppContext } from '../../context.ts';
import { datasetRoutes } from './datasets.ts';
import { datasetItemsRoute } from './items.ts';
import { v1JobRoutes } from './jobs.ts';
import { uploadDatasetRoutes } from './upload.ts';
import { vectorizeDatasetRoute } from './vectorize.ts';

/** v1 datasets, extract/vectorize uploads and v1 jobs (interface.md 4.8, 4.9): key-scoped, no workspace in the path. */
export function registerDatasetRoutes(app: App, ctx: AppContext): void {
  for (const route of [
    uploadDatasetRoutes,
    vectorizeDatasetRoute,
    datasetRoutes,
    datasetItemsRoute,
    v1JobRoutes,
  ]) {
    route(app, ctx);
  }
}
