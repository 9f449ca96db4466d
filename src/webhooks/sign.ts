import { createHmac } from 'node:crypto';

/**
 * Standard Webhooks signing: HMAC-SHA256 over `id.timestamp.body` with the endpoint's key,
 * base64, versioned `v1,`. The timestamp is whole seconds since the epoch.
 */
export function signatureHeaders(key: Buffer, id: string, timestampSeconds: number, body: string) {
  const signature = createHmac('sha256', key).update(`${id}.${timestampSeconds}.${body}`).digest('base64');
  return {
    'webhook-id': id,
    'webhook-timestamp': String(timestampSeconds),
    'webhook-signature': `v1,${signature}`,
  };
}
