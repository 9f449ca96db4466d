import { createHash, createHmac, randomBytes } from 'node:crypto';
import type { Clock } from '../infra/clock.ts';
import type { Database, Queryable } from '../infra/db/database.ts';
import { newId } from '../infra/ids.ts';
import { enqueue } from '../infra/queue.ts';
import { type DeliveryRow, repos, type WebhookRow } from '../infra/repos/index.ts';
import type { TaskKind } from '../infra/task-kinds.ts';
import { errors } from './errors.ts';

export const WEBHOOK_EVENTS = [
  'job.succeeded',
  'job.failed',
  'run.finished',
  'cell.override_set',
  'cell.override_cleared',
] as const;
export type WebhookEvent = (typeof WEBHOOK_EVENTS)[number];

export const WEBHOOK_TASK = 'webhook.deliver' satisfies TaskKind;

/** Retries go on this long after the event; an endpoint failing this long is disabled. */
export const WEBHOOK_RETRY_WINDOW_MS = 24 * 60 * 60 * 1000;

export interface Webhook {
  id: string;
  workspaceId: string;
  url: string;
  events: WebhookEvent[];
  enabled: boolean;
  /** Why the service turned it off (24 hours of failures); null when enabled or turned off by a user. */
  disabledReason: string | null;
  /** First failure of the current run of failures; null once a delivery succeeds. */
  failingSince: number | null;
  /** sha256 of the signing key, to tell secrets apart; the secret itself is shown once. */
  secretHash: string;
  createdAt: number;
  updatedAt: number;
}

export function toWebhook(w: WebhookRow): Webhook {
  return {
    id: w.id,
    workspaceId: w.workspace_id,
    url: w.url,
    events: w.events as WebhookEvent[],
    enabled: w.enabled,
    disabledReason: w.disabled_reason,
    failingSince: w.failing_since,
    secretHash: w.secret_hash,
    createdAt: w.created_at,
    updatedAt: w.updated_at,
  };
}

/**
 * The signing key of an endpoint, derived from the deployment's secret and the endpoint's
 * salt, so the database holds only its hash (a copy of the database alone signs nothing).
 * Shown to the user once, Standard Webhooks style: `whsec_` + base64 of the key.
 */
export function signingKey(masterSecret: string, salt: string): Buffer {
  return createHmac('sha256', masterSecret).update(`folio-webhook-signing:${salt}`).digest();
}

export const secretText = (key: Buffer) => `whsec_${key.toString('base64')}`;
const keyHash = (key: Buffer) => createHash('sha256').update(key).digest('hex');

export interface WebhookInput {
  url: string;
  events: WebhookEvent[];
  enabled?: boolean;
}

/** The URL check (a public address, unless the deployment allows private ones) is the caller's. */
export async function createWebhook(
  db: Database,
  workspaceId: string,
  input: WebhookInput,
  masterSecret: string,
  now: number,
): Promise<{ webhook: Webhook; secret: string }> {
  const salt = randomBytes(16).toString('hex');
  const key = signingKey(masterSecret, salt);
  const row: WebhookRow = {
    id: newId('whk'),
    workspace_id: workspaceId,
    url: input.url,
    events: [...new Set(input.events)],
    enabled: input.enabled ?? true,
    secret_salt: salt,
    secret_hash: keyHash(key),
    failing_since: null,
    disabled_reason: null,
    created_at: now,
    updated_at: now,
  };
  await repos(db).webhooks.insertWebhook(row);
  return { webhook: toWebhook(row), secret: secretText(key) };
}

export async function listWorkspaceWebhooks(db: Queryable, workspaceId: string): Promise<Webhook[]> {
  return (await repos(db).webhooks.listWebhooks(workspaceId)).map(toWebhook);
}

export async function getWebhook(db: Queryable, workspaceId: string, id: string): Promise<Webhook> {
  const w = await repos(db).webhooks.findWebhook(workspaceId, id);
  if (!w) throw errors.notFound('Webhook');
  return toWebhook(w);
}

/** Turning an endpoint back on starts its failure clock afresh. */
export async function patchWebhook(
  db: Database,
  workspaceId: string,
  id: string,
  patch: Partial<WebhookInput>,
  clock: Clock,
): Promise<Webhook> {
  return db.transaction(async (tx) => {
    const w = await repos(tx).webhooks.findWebhook(workspaceId, id, { forUpdate: true });
    if (!w) throw errors.notFound('Webhook');
    const now = clock();
    const changed: Parameters<ReturnType<typeof repos>['webhooks']['updateWebhook']>[1] = {};
    if (patch.url !== undefined) changed.url = patch.url;
    if (patch.events !== undefined) changed.events = [...new Set(patch.events)];
    if (patch.enabled !== undefined) {
      changed.enabled = patch.enabled;
      if (patch.enabled) {
        changed.failing_since = null;
        changed.disabled_reason = null;
      }
    }
    await repos(tx).webhooks.updateWebhook(id, changed, now);
    return toWebhook({ ...w, ...changed, updated_at: now } as WebhookRow);
  });
}

export async function deleteWebhook(db: Database, workspaceId: string, id: string): Promise<Webhook> {
  return db.transaction(async (tx) => {
    const w = await repos(tx).webhooks.findWebhook(workspaceId, id, { forUpdate: true });
    if (!w) throw errors.notFound('Webhook');
    await repos(tx).webhooks.deleteWebhook(id);
    return toWebhook(w);
  });
}

/**
 * Queues the event for every enabled endpoint of the workspace that takes it, in the
 * caller's transaction: the delivery exists exactly when the event happened. The payload
 * carries ids and statuses, never share URLs or tokens.
 */
export async function emitEvent(
  tx: Queryable,
  workspaceId: string,
  event: WebhookEvent,
  data: Record<string, string | number | boolean | null>,
  now: number,
): Promise<number> {
  const hooks = await repos(tx).webhooks.subscribedWebhooks(workspaceId, event);
  for (const w of hooks) {
    const id = newId('msg');
    const payload = JSON.stringify({
      type: event,
      timestamp: new Date(now).toISOString(),
      data: { workspaceId, ...data },
    });
    await repos(tx).webhooks.insertDelivery({
      id,
      webhook_id: w.id,
      workspace_id: workspaceId,
      event,
      payload,
      status: 'pending',
      attempts: 0,
      next_attempt_at: now,
      created_at: now,
      updated_at: now,
    });
    await enqueue(tx, WEBHOOK_TASK, id, now, { workspaceId });
  }
  return hooks.length;
}

export interface Delivery {
  id: string;
  webhookId: string;
  event: WebhookEvent;
  status: DeliveryRow['status'];
  attempts: Array<{ at: number; statusCode: number | null; error: string | null; latencyMs: number }>;
  nextAttemptAt: number | null;
  payload: unknown;
  createdAt: number;
}

export async function listDeliveries(
  db: Queryable,
  workspaceId: string,
  webhookId: string,
  page: { offset: number; limit: number },
): Promise<{ total: number; deliveries: Delivery[] }> {
  await getWebhook(db, workspaceId, webhookId);
  const { rows, total } = await repos(db).webhooks.listDeliveries(webhookId, page);
  const attempts = await repos(db).webhooks.attemptsOf(rows.map((r) => r.id));
  return {
    total,
    deliveries: rows.map((d) => ({
      id: d.id,
      webhookId: d.webhook_id,
      event: d.event as WebhookEvent,
      status: d.status,
      attempts: attempts
        .filter((a) => a.delivery_id === d.id)
        .map((a) => ({
          at: a.attempted_at,
          statusCode: a.status_code,
          error: a.error,
          latencyMs: a.latency_ms,
        })),
      nextAttemptAt: d.next_attempt_at,
      payload: JSON.parse(d.payload) as unknown,
      createdAt: d.created_at,
    })),
  };
}

/** Sends a delivery again (same message id, so receivers can tell a repeat), now. */
export async function resendDelivery(
  db: Database,
  workspaceId: string,
  webhookId: string,
  deliveryId: string,
  clock: Clock,
): Promise<void> {
  await db.transaction(async (tx) => {
    const w = await repos(tx).webhooks.findWebhook(workspaceId, webhookId);
    const d = await repos(tx).webhooks.findDelivery(deliveryId, { forUpdate: true });
    if (!w || !d || d.webhook_id !== w.id) throw errors.notFound('Delivery');
    if (d.status === 'pending')
      throw errors.conflict('This delivery is still being sent; wait for it to finish.');
    const now = clock();
    await repos(tx).webhooks.updateDelivery(deliveryId, { status: 'pending', next_attempt_at: now }, now);
    await enqueue(tx, WEBHOOK_TASK, deliveryId, now, { workspaceId });
  });
}
