import type { App } from '../../context.ts';
import { APP_PREFIX, type AppFileHandler } from './file-server.ts';

export function appRootRoute(app: App, serve: AppFileHandler): void {
  app.get(APP_PREFIX, { config: { access: 'public', rateLimit: false }, schema: { hide: true } }, serve);
}
