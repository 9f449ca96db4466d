import type { App, AppContext } from '../../context.ts';
import { createWebhookRoute } from './create.ts';
import { deleteWebhookRoute } from './delete.ts';
import { listDeliveriesRoute } from './deliveries.ts';
import { getWebhookRoute } from './get.ts';
import { listWebhooksRoute } from './list.ts';
import { patchWebhookRoute } from './patch.ts';
import { resendDeliveryRoute } from './resend.ts';

/** Issue 17 item 1: signed webhooks (an extension; interface.md 6 leaves push open). */
export function registerWebhookRoutes(app: App, ctx: AppContext): void {
  for (const route of [
    listWebhooksRoute,
    getWebhookRoute,
    createWebhookRoute,
    patchWebhookRoute,
    deleteWebhookRoute,
    listDeliveriesRoute,
    resendDeliveryRoute,
  ]) {
    route(app, ctx);
  }
}
