import type { Queryable } from '../db/database.ts';

export interface SearchRequestRow {
  id: string;
  workspace_id: string;
  key_id: string | null;
  idempotency_key: string | null;
  request_hash: string;
  price: number;
  result_count: number;
  created_at: number;
}

/** The charge an idempotency key names, if it was made after `since`. */
export async function findRecentSearch(
  q: Queryable,
  workspaceId: string,
  idempotencyKey: string,
  since: number,
): Promise<SearchRequestRow | null> {
  const rows = await q.query<SearchRequestRow>(
    'SELECT * FROM search_requests WHERE workspace_id = $1 AND idempotency_key = $2 AND created_at > $3',
    [workspaceId, idempotencyKey, since],
  );
  return rows[0] ?? null;
}

/**
 * Records a search. With an idempotency key, a row for the key older than `since` is taken
 * over, and a newer one (a concurrent twin that committed first) wins: then nothing is
 * written and false comes back, so the caller charges nothing.
 */
export async function insertSearchRequest(
  q: Queryable,
  r: SearchRequestRow,
  since: number,
): Promise<boolean> {
  const rows = await q.query(
    `INSERT INTO search_requests (id, workspace_id, key_id, idempotency_key, request_hash, price, result_count, created_at)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8)
     ON CONFLICT (workspace_id, idempotency_key) DO UPDATE
       SET id = EXCLUDED.id, key_id = EXCLUDED.key_id, request_hash = EXCLUDED.request_hash,
           price = EXCLUDED.price, result_count = EXCLUDED.result_count, created_at = EXCLUDED.created_at
       WHERE search_requests.created_at <= $9
     RETURNING id`,
    [
      r.id,
      r.workspace_id,
      r.key_id,
      r.idempotency_key,
      r.request_hash,
      r.price,
      r.result_count,
      r.created_at,
      since,
    ],
  );
  return rows.length === 1;
}
