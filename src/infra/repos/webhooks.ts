import type { Queryable } from '../db/database.ts';
import { updateByIdSql } from '../db/sql.ts';

export interface WebhookRow {
  id: string;
  workspace_id: string;
  url: string;
  events: string[];
  enabled: boolean;
  secret_salt: string;
  secret_hash: string;
  failing_since: number | null;
  disabled_reason: string | null;
  created_at: number;
  updated_at: number;
}

export interface DeliveryRow {
  id: string;
  webhook_id: string;
  workspace_id: string;
  event: string;
  payload: string;
  status: 'pending' | 'succeeded' | 'failed';
  attempts: number;
  next_attempt_at: number | null;
  created_at: number;
  updated_at: number;
}

export interface AttemptRow {
  id: string;
  delivery_id: string;
  attempted_at: number;
  status_code: number | null;
  error: string | null;
  latency_ms: number;
}

export async function insertWebhook(q: Queryable, w: WebhookRow): Promise<void> {
  await q.query(
    `INSERT INTO webhooks (id, workspace_id, url, events, enabled, secret_salt, secret_hash, failing_since,
                           disabled_reason, created_at, updated_at)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11)`,
    [
      w.id,
      w.workspace_id,
      w.url,
      w.events,
      w.enabled,
      w.secret_salt,
      w.secret_hash,
      w.failing_since,
      w.disabled_reason,
      w.created_at,
      w.updated_at,
    ],
  );
}

export async function findWebhook(
  q: Queryable,
  workspaceId: string,
  id: string,
  opts: { forUpdate?: boolean } = {},
): Promise<WebhookRow | null> {
  const rows = await q.query<WebhookRow>(
    `SELECT * FROM webhooks WHERE workspace_id = $1 AND id = $2${opts.forUpdate ? ' FOR UPDATE' : ''}`,
    [workspaceId, id],
  );
  return rows[0] ?? null;
}

export async function listWebhooks(q: Queryable, workspaceId: string): Promise<WebhookRow[]> {
  return q.query<WebhookRow>('SELECT * FROM webhooks WHERE workspace_id = $1 ORDER BY created_at, id', [
    workspaceId,
  ]);
}

/** Enabled endpoints of the workspace that take this event. */
export async function subscribedWebhooks(
  q: Queryable,
  workspaceId: string,
  event: string,
): Promise<WebhookRow[]> {
  return q.query<WebhookRow>(
    'SELECT * FROM webhooks WHERE workspace_id = $1 AND enabled AND $2 = ANY(events) ORDER BY id',
    [workspaceId, event],
  );
}

export async function updateWebhook(
  q: Queryable,
  id: string,
  patch: Partial<Pick<WebhookRow, 'url' | 'events' | 'enabled' | 'failing_since' | 'disabled_reason'>>,
  now: number,
): Promise<void> {
  const { sql, params } = updateByIdSql('webhooks', id, patch, now);
  await q.query(sql, params);
}

export async function deleteWebhook(q: Queryable, id: string): Promise<void> {
  await q.query('DELETE FROM webhooks WHERE id = $1', [id]);
}

export async function insertDelivery(q: Queryable, d: DeliveryRow): Promise<void> {
  await q.query(
    `INSERT INTO webhook_deliveries (id, webhook_id, workspace_id, event, payload, status, attempts, next_attempt_at,
                                     created_at, updated_at)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10)`,
    [
      d.id,
      d.webhook_id,
      d.workspace_id,
      d.event,
      d.payload,
      d.status,
      d.attempts,
      d.next_attempt_at,
      d.created_at,
      d.updated_at,
    ],
  );
}

export async function findDelivery(
  q: Queryable,
  id: string,
  opts: { forUpdate?: boolean } = {},
): Promise<DeliveryRow | null> {
  const rows = await q.query<DeliveryRow>(
    `SELECT * FROM webhook_deliveries WHERE id = $1${opts.forUpdate ? ' FOR UPDATE' : ''}`,
    [id],
  );
  return rows[0] ?? null;
}

export async function updateDelivery(
  q: Queryable,
  id: string,
  patch: Partial<Pick<DeliveryRow, 'status' | 'attempts' | 'next_attempt_at'>>,
  now: number,
): Promise<void> {
  const { sql, params } = updateByIdSql('webhook_deliveries', id, patch, now);
  await q.query(sql, params);
}

/** Newest first, one page. */
export async function listDeliveries(
  q: Queryable,
  webhookId: string,
  page: { offset: number; limit: number },
): Promise<{ rows: DeliveryRow[]; total: number }> {
  const total = (
    await q.query<{ n: number }>('SELECT count(*)::int AS n FROM webhook_deliveries WHERE webhook_id = $1', [
      webhookId,
    ])
  )[0]!.n;
  const rows = await q.query<DeliveryRow>(
    `SELECT * FROM webhook_deliveries WHERE webhook_id = $1 ORDER BY created_at DESC, id DESC OFFSET $2 LIMIT $3`,
    [webhookId, page.offset, page.limit],
  );
  return { rows, total };
}

export async function insertAttempt(q: Queryable, a: AttemptRow): Promise<void> {
  await q.query(
    `INSERT INTO webhook_attempts (id, delivery_id, attempted_at, status_code, error, latency_ms)
     VALUES ($1, $2, $3, $4, $5, $6)`,
    [a.id, a.delivery_id, a.attempted_at, a.status_code, a.error, a.latency_ms],
  );
}

/** Each delivery's attempts, oldest first. */
export async function attemptsOf(q: Queryable, deliveryIds: readonly string[]): Promise<AttemptRow[]> {
  if (deliveryIds.length === 0) return [];
  return q.query<AttemptRow>(
    'SELECT * FROM webhook_attempts WHERE delivery_id = ANY($1::text[]) ORDER BY attempted_at, id',
    [deliveryIds],
  );
}
