import type { Queryable } from '../db/database.ts';
import { updateByIdSql } from '../db/sql.ts';

export type Tier = 'starter' | 'bronze' | 'silver' | 'gold';

export interface WorkspaceRow {
  id: string;
  name: string;
  tier: Tier;
  balance: number;
  spend_cap: number | null;
  month_spend: number;
  spend_month: string;
  created_at: number;
  updated_at: number;
}

export async function insertWorkspace(q: Queryable, w: WorkspaceRow): Promise<void> {
  await q.query(
    `INSERT INTO workspaces (id, name, tier, balance, spend_cap, month_spend, spend_month, created_at, updated_at)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)`,
    [w.id, w.name, w.tier, w.balance, w.spend_cap, w.month_spend, w.spend_month, w.created_at, w.updated_at],
  );
}

export async function findWorkspace(
  q: Queryable,
  id: string,
  opts: { forUpdate?: boolean } = {},
): Promise<WorkspaceRow | null> {
  const rows = await q.query<WorkspaceRow>(
    `SELECT * FROM workspaces WHERE id = $1${opts.forUpdate ? ' FOR UPDATE' : ''}`,
    [id],
  );
  return rows[0] ?? null;
}

export async function countWorkspaces(q: Queryable): Promise<number> {
  const rows = await q.query<{ n: number }>('SELECT count(*)::int AS n FROM workspaces');
  return rows[0].n;
}

export async function updateWorkspace(
  q: Queryable,
  id: string,
  patch: Partial<
    Pick<WorkspaceRow, 'name' | 'tier' | 'spend_cap' | 'balance' | 'month_spend' | 'spend_month'>
  >,
  now: number,
): Promise<void> {
  const { sql, params } = updateByIdSql('workspaces', id, patch, now);
  await q.query(sql, params);
}
