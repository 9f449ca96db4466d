import type { App, AppContext } from '../../context.ts';
import { mintShareRoute } from './mint.ts';
import { redeemShareRoute } from './redeem.ts';

/** Signed, time-limited links to one page or file (interface.md 4.7). */
export function registerShareRoutes(app: App, ctx: AppContext): void {
  for (const route of [mintShareRoute, redeemShareRoute]) {
    route(app, ctx);
  }
}
