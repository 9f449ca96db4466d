import type { App, AppContext } from '../../context.ts';
import { abortUploadSessionRoute } from './abort.ts';
import { appendUploadPartRoute } from './append.ts';
import { endUploadSessionRoute } from './end.ts';
import { startUploadSessionRoute } from './start.ts';

/** v1 upload sessions (interface.md 4.8): a file sent in parts of 5-100 MB, assembled at end. */
export function registerUploadSessionRoutes(app: App, ctx: AppContext): void {
  for (const route of [
    startUploadSessionRoute,
    appendUploadPartRoute,
    endUploadSessionRoute,
    abortUploadSessionRoute,
  ]) {
    route(app, ctx);
  }
}
