import type { App } from '../../context.ts';
import { APP_PREFIX, type AppFileHandler } from './file-server.ts';

/** Built files and, for any other path, index.html: the app routes on the client. */
export function appPathsRoute(app: App, serve: AppFileHandler): void {
  app.get(
    `${APP_PREFIX}/*`,
    { config: { access: 'public', rateLimit: false }, schema: { hide: true } },
    serve,
  );
}
