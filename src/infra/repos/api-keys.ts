import type { Queryable } from '../db/database.ts';

export type KeyLevel = 'read' | 'read_write';

export interface ApiKeyRow {
  id: string;
  workspace_id: string;
  level: KeyLevel;
  secret_hash: Uint8Array;
  last4: string;
  expires_at: number | null;
  revoked_at: number | null;
  last_used_at: number | null;
  created_at: number;
}

export async function insertApiKey(q: Queryable, k: ApiKeyRow): Promise<void> {
  await q.query(
    `INSERT INTO api_keys (id, workspace_id, level, secret_hash, last4, expires_at, revoked_at, last_used_at, created_at)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)`,
    [
      k.id,
      k.workspace_id,
      k.level,
      k.secret_hash,
      k.last4,
      k.expires_at,
      k.revoked_at,
      k.last_used_at,
      k.created_at,
    ],
  );
}

export async function findApiKey(q: Queryable, id: string): Promise<ApiKeyRow | null> {
  const rows = await q.query<ApiKeyRow>('SELECT * FROM api_keys WHERE id = $1', [id]);
  return rows[0] ?? null;
}

export async function revokeApiKey(q: Queryable, id: string, now: number): Promise<void> {
  await q.query('UPDATE api_keys SET revoked_at = COALESCE(revoked_at, $2) WHERE id = $1', [id, now]);
}

/** Writes at most once per `minIntervalMs` per key, so authentication stays read-mostly. */
export async function touchApiKey(
  q: Queryable,
  id: string,
  now: number,
  minIntervalMs: number,
): Promise<void> {
  await q.query(
    'UPDATE api_keys SET last_used_at = $2 WHERE id = $1 AND (last_used_at IS NULL OR last_used_at < $3)',
    [id, now, now - minIntervalMs],
  );
}
