import type { Queryable } from '../db/database.ts';

export interface LedgerRow {
  id: string;
  workspace_id: string;
  amount: number;
  balance_after: number;
  reason: string;
  ref_id: string | null;
  actor_id: string | null;
  created_at: number;
}

export async function insertLedgerRow(q: Queryable, r: LedgerRow): Promise<void> {
  await q.query(
    `INSERT INTO credit_ledger (id, workspace_id, amount, balance_after, reason, ref_id, actor_id, created_at)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8)`,
    [r.id, r.workspace_id, r.amount, r.balance_after, r.reason, r.ref_id, r.actor_id, r.created_at],
  );
}

export async function listLedger(q: Queryable, workspaceId: string): Promise<LedgerRow[]> {
  return q.query<LedgerRow>('SELECT * FROM credit_ledger WHERE workspace_id = $1 ORDER BY created_at, id', [
    workspaceId,
  ]);
}

export async function insertLedgerRows(q: Queryable, rows: readonly LedgerRow[]): Promise<void> {
  if (rows.length === 0) return;
  const col = <K extends keyof LedgerRow>(k: K) => rows.map((r) => r[k]);
  await q.query(
    `INSERT INTO credit_ledger (id, workspace_id, amount, balance_after, reason, ref_id, actor_id, created_at)
     SELECT * FROM unnest($1::text[], $2::text[], $3::bigint[], $4::bigint[], $5::text[], $6::text[], $7::text[], $8::bigint[])`,
    [
      col('id'),
      col('workspace_id'),
      col('amount'),
      col('balance_after'),
      col('reason'),
      col('ref_id'),
      col('actor_id'),
      col('created_at'),
    ],
  );
}
