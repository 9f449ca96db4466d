import path from 'node:path';
import type { App, AppContext } from '../../context.ts';
import { appPathsRoute } from './app-paths.ts';
import { appRootRoute } from './app-root.ts';
import { appFileServer, WEB_APP_DIR } from './file-server.ts';
import { frontDoorRoute } from './front-door.ts';

// Tests and the e2e check read these from the resource's entry point.
export { APP_PREFIX, CONTENT_SECURITY_POLICY, WEB_APP_DIR } from './file-server.ts';

/** The single-page web app at /app; `dir` replaces the build folder (tests serve a stand-in). */
export async function registerWebAppRoutes(
  app: App,
  _ctx: AppContext,
  options: { dir?: string } = {},
): Promise<void> {
  const serve = appFileServer(path.resolve(options.dir ?? WEB_APP_DIR));
  appRootRoute(app, serve);
  appPathsRoute(app, serve);
  frontDoorRoute(app);
}
