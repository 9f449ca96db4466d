import { WEBHOOK_EVENTS, type WebhookEvent } from '../../../domain/webhooks.ts';
import { Nullable, Type } from '../../schema.ts';

export const WebhookParams = Type.Object({
  workspaceId: Type.String({ maxLength: 80 }),
  webhookId: Type.String({ maxLength: 80 }),
});

export const Event = Type.Unsafe<WebhookEvent>(Type.Union(WEBHOOK_EVENTS.map((e) => Type.Literal(e))));
export const Events = Type.Array(Event, { minItems: 1, maxItems: WEBHOOK_EVENTS.length, uniqueItems: true });
export const Url = Type.String({
  minLength: 8,
  maxLength: 2048,
  description: 'http(s); must resolve to public addresses unless WEBHOOK_ALLOW_PRIVATE',
});

export const WebhookSchema = Type.Object({
  id: Type.String(),
  workspaceId: Type.String(),
  url: Type.String(),
  events: Type.Array(Event),
  enabled: Type.Boolean(),
  disabledReason: Nullable(Type.String()),
  failingSince: Nullable(Type.Integer()),
  secretHash: Type.String({ description: 'sha256 of the signing key, to tell secrets apart' }),
  createdAt: Type.Integer(),
  updatedAt: Type.Integer(),
});

export const DeliverySchema = Type.Object({
  id: Type.String({ description: 'the message id, sent as the webhook-id header' }),
  webhookId: Type.String(),
  event: Event,
  status: Type.Union([Type.Literal('pending'), Type.Literal('succeeded'), Type.Literal('failed')]),
  attempts: Type.Array(
    Type.Object({
      at: Type.Integer(),
      statusCode: Nullable(Type.Integer()),
      error: Nullable(Type.String()),
      latencyMs: Type.Integer(),
    }),
  ),
  nextAttemptAt: Nullable(Type.Integer()),
  payload: Type.Unknown(),
  createdAt: Type.Integer(),
});

export const DESCRIPTION =
  'An extension (issue 17): interface.md 6 leaves push notifications open. Signed per Standard Webhooks: headers webhook-id, webhook-timestamp, webhook-signature (v1, HMAC-SHA256 over id.timestamp.body). Spec: interface.md 6; interface.md 7.';
