import type { App, AppContext } from '../../context.ts';
import { deleteDatasetRoute } from './delete.ts';
import { getDatasetRoute } from './get.ts';
import { getV1JobRoute } from './get-job.ts';
import { datasetItemsRoute } from './items.ts';
import { listDatasetsRoute } from './list.ts';
import { listV1JobsRoute } from './list-jobs.ts';
import { uploadExtractRoute } from './upload-extract.ts';
import { uploadVectorizeRoute } from './upload-vectorize.ts';
import { vectorizeDatasetRoute } from './vectorize.ts';

/** v1 datasets, extract/vectorize uploads and v1 jobs (interface.md 4.8, 4.9): key-scoped, no workspace in the path. */
export function registerDatasetRoutes(app: App, ctx: AppContext): void {
  for (const route of [
    uploadExtractRoute,
    uploadVectorizeRoute,
    vectorizeDatasetRoute,
    listDatasetsRoute,
    getDatasetRoute,
    deleteDatasetRoute,
    datasetItemsRoute,
    listV1JobsRoute,
    getV1JobRoute,
  ]) {
    route(app, ctx);
  }
}
