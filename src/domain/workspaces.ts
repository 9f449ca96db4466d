import type { Clock } from '../infra/clock.ts';
import type { Database } from '../infra/db/database.ts';
import { newId } from '../infra/ids.ts';
import { repos, type Tier, type WorkspaceRow } from '../infra/repos/index.ts';
import { spendMonth } from './clock.ts';
import { changeBalance, currentMonthSpend } from './credits.ts';
import { errors } from './errors.ts';

export type { Tier };
export const TIERS: readonly Tier[] = ['starter', 'bronze', 'silver', 'gold'];

export interface Workspace {
  id: string;
  name: string;
  tier: Tier;
  balance: number;
  spendCap: number | null;
  monthSpend: number;
  createdAt: number;
  updatedAt: number;
}

export function toWorkspace(w: WorkspaceRow, now: number): Workspace {
  return {
    id: w.id,
    name: w.name,
    tier: w.tier,
    balance: w.balance,
    spendCap: w.spend_cap,
    monthSpend: currentMonthSpend(w, now),
    createdAt: w.created_at,
    updatedAt: w.updated_at,
  };
}

export interface NewWorkspace {
  name: string;
  tier?: Tier;
  credits?: number;
  spendCap?: number | null;
}

export async function createWorkspace(
  db: Database,
  input: NewWorkspace,
  actorId: string | null,
  now: number,
): Promise<Workspace> {
  const row: WorkspaceRow = {
    id: newId('wks'),
    name: input.name,
    tier: input.tier ?? 'silver',
    balance: 0,
    spend_cap: input.spendCap ?? null,
    month_spend: 0,
    spend_month: spendMonth(now),
    created_at: now,
    updated_at: now,
  };
  return db.transaction(async (tx) => {
    await repos(tx).workspaces.insertWorkspace(row);
    const credits = input.credits ?? 0;
    const after =
      credits > 0
        ? await changeBalance(tx, { workspaceId: row.id, amount: credits, reason: 'grant', actorId }, now)
        : row;
    return toWorkspace(after, now);
  });
}

export async function getWorkspace(db: Database, id: string, now: number): Promise<Workspace> {
  const w = await repos(db).workspaces.findWorkspace(id);
  if (!w) throw errors.notFound('Workspace');
  return toWorkspace(w, now);
}

export async function patchWorkspace(
  db: Database,
  id: string,
  patch: { name?: string; tier?: Tier; spendCap?: number | null },
  clock: Clock,
): Promise<Workspace> {
  return db.transaction(async (tx) => {
    const w = await repos(tx).workspaces.findWorkspace(id, { forUpdate: true });
    if (!w) throw errors.notFound('Workspace');
    const now = clock();
    await repos(tx).workspaces.updateWorkspace(
      id,
      { name: patch.name, tier: patch.tier, spend_cap: patch.spendCap },
      now,
    );
    return toWorkspace((await repos(tx).workspaces.findWorkspace(id))!, now);
  });
}

/** Admin grant or removal; the balance never goes below 0 (decisions.md D1). */
export async function grantCredits(
  db: Database,
  id: string,
  amount: number,
  actorId: string | null,
  clock: Clock,
): Promise<Workspace> {
  return db.transaction(async (tx) => {
    const now = clock();
    const after = await changeBalance(
      tx,
      { workspaceId: id, amount, reason: 'grant', actorId, clampAtZero: true },
      now,
    );
    return toWorkspace(after, now);
  });
}
