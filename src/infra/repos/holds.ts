import type { Queryable } from '../db/database.ts';

export interface HoldRow {
  id: string;
  workspace_id: string;
  cell_id: string;
  run_id: string;
  amount: number;
  state: 'held' | 'captured' | 'released';
  created_at: number;
  settled_at: number | null;
}

export async function insertHold(q: Queryable, h: HoldRow): Promise<void> {
  await q.query(
    `INSERT INTO credit_holds (id, workspace_id, cell_id, run_id, amount, state, created_at, settled_at)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8)`,
    [h.id, h.workspace_id, h.cell_id, h.run_id, h.amount, h.state, h.created_at, h.settled_at],
  );
}

/** Moves a hold out of `held` exactly once; null when it was already settled. */
export async function settleHold(
  q: Queryable,
  id: string,
  state: 'captured' | 'released',
  now: number,
): Promise<HoldRow | null> {
  const rows = await q.query<HoldRow>(
    `UPDATE credit_holds SET state = $2, settled_at = $3 WHERE id = $1 AND state = 'held' RETURNING *`,
    [id, state, now],
  );
  return rows[0] ?? null;
}

/** Credits held for cells in progress: they count against the spend cap before they are charged. */
export async function heldTotal(q: Queryable, workspaceId: string): Promise<number> {
  const rows = await q.query<{ n: number }>(
    `SELECT COALESCE(sum(amount), 0)::bigint AS n FROM credit_holds WHERE workspace_id = $1 AND state = 'held'`,
    [workspaceId],
  );
  return rows[0].n;
}

export async function listHolds(q: Queryable, workspaceId: string): Promise<HoldRow[]> {
  return q.query<HoldRow>('SELECT * FROM credit_holds WHERE workspace_id = $1 ORDER BY created_at, id', [
    workspaceId,
  ]);
}

export async function insertHolds(q: Queryable, holds: readonly HoldRow[]): Promise<void> {
  if (holds.length === 0) return;
  const col = <K extends keyof HoldRow>(k: K) => holds.map((h) => h[k]);
  await q.query(
    `INSERT INTO credit_holds (id, workspace_id, cell_id, run_id, amount, state, created_at, settled_at)
     SELECT * FROM unnest($1::text[], $2::text[], $3::text[], $4::text[], $5::bigint[], $6::text[], $7::bigint[], $8::bigint[])`,
    [
      col('id'),
      col('workspace_id'),
      col('cell_id'),
      col('run_id'),
      col('amount'),
      col('state'),
      col('created_at'),
      col('settled_at'),
    ],
  );
}

/** settleHold for many: returns the holds that moved (those still `held`), in id order. */
export async function settleHolds(
  q: Queryable,
  ids: readonly string[],
  state: 'captured' | 'released',
  now: number,
): Promise<HoldRow[]> {
  if (ids.length === 0) return [];
  const rows = await q.query<HoldRow>(
    `UPDATE credit_holds SET state = $2, settled_at = $3 WHERE id = ANY($1::text[]) AND state = 'held' RETURNING *`,
    [ids, state, now],
  );
  return rows.sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
}
