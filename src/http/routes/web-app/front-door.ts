import type { App } from '../../context.ts';
import { APP_PREFIX } from './file-server.ts';

/** The service's front door leads to the app. */
export function frontDoorRoute(app: App): void {
  app.get(
    '/',
    { config: { access: 'public', rateLimit: false }, schema: { hide: true } },
    async (_request, reply) => reply.redirect(`${APP_PREFIX}/`, 302),
  );
}
