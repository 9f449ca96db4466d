import type { App, AppContext } from '../../context.ts';
import { getKeyWorkspaceRoute } from './get.ts';
import { getMeRoute } from './me.ts';

/**
 * Extensions for clients that hold only a key (the web app among them): a key does not
 * say which workspace it reaches, and interface.md shows no workspace record. Both are
 * read-only and free.
 */
export function registerWorkspaceRoutes(app: App, ctx: AppContext): void {
  for (const route of [getMeRoute, getKeyWorkspaceRoute]) {
    route(app, ctx);
  }
}
