import type { Queryable } from '../db/database.ts';

export interface IdempotencyRow {
  api_key_id: string;
  idem_key: string;
  fingerprint: string;
  state: 'in_flight' | 'done';
  locked_until: number | null;
  status: number | null;
  content_type: string | null;
  body: string | null;
  created_at: number;
  expires_at: number;
}

/**
 * Claims a key for a request: a new row, or one whose answer expired or whose in-flight lock
 * ran out (its process died). Returns true when this request now owns the key; false when a
 * live row stands (read it with findIdempotencyKey).
 */
export async function claimIdempotencyKey(
  q: Queryable,
  r: { apiKeyId: string; key: string; fingerprint: string; now: number; lockMs: number; ttlMs: number },
): Promise<boolean> {
  const rows = await q.query(
    `INSERT INTO idempotency_keys AS k (api_key_id, idem_key, fingerprint, state, locked_until, created_at, expires_at)
     VALUES ($1, $2, $3, 'in_flight', $4 + $5::bigint, $4, $4 + $6::bigint)
     ON CONFLICT (api_key_id, idem_key) DO UPDATE
        SET fingerprint = EXCLUDED.fingerprint, state = 'in_flight', locked_until = EXCLUDED.locked_until,
            status = NULL, content_type = NULL, body = NULL, created_at = EXCLUDED.created_at,
            expires_at = EXCLUDED.expires_at
      WHERE k.expires_at <= $4 OR (k.state = 'in_flight' AND k.locked_until <= $4)
     RETURNING api_key_id`,
    [r.apiKeyId, r.key, r.fingerprint, r.now, r.lockMs, r.ttlMs],
  );
  return rows.length === 1;
}

export async function findIdempotencyKey(
  q: Queryable,
  apiKeyId: string,
  key: string,
): Promise<IdempotencyRow | null> {
  const rows = await q.query<IdempotencyRow>(
    'SELECT * FROM idempotency_keys WHERE api_key_id = $1 AND idem_key = $2',
    [apiKeyId, key],
  );
  return rows[0] ?? null;
}

/** The answer to replay, filed by the request that owns the key. */
export async function completeIdempotencyKey(
  q: Queryable,
  r: { apiKeyId: string; key: string; status: number; contentType: string | null; body: string },
): Promise<void> {
  await q.query(
    `UPDATE idempotency_keys SET state = 'done', locked_until = NULL, status = $3, content_type = $4, body = $5
      WHERE api_key_id = $1 AND idem_key = $2 AND state = 'in_flight'`,
    [r.apiKeyId, r.key, r.status, r.contentType, r.body],
  );
}

/** A request that failed on our side gives its key back, so a retry runs again. */
export async function releaseIdempotencyKey(q: Queryable, apiKeyId: string, key: string): Promise<void> {
  await q.query(
    `DELETE FROM idempotency_keys WHERE api_key_id = $1 AND idem_key = $2 AND state = 'in_flight'`,
    [apiKeyId, key],
  );
}

/** Answers kept past their 24 hours go. */
export async function deleteExpiredIdempotencyKeys(q: Queryable, now: number): Promise<number> {
  const rows = await q.query('DELETE FROM idempotency_keys WHERE expires_at <= $1 RETURNING idem_key', [now]);
  return rows.length;
}
