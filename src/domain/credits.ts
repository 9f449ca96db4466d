import type { Queryable } from '../infra/db/database.ts';
import { newId } from '../infra/ids.ts';
import { insertLedgerRow } from '../infra/repos/ledger.ts';
import { findWorkspace, updateWorkspace, type WorkspaceRow } from '../infra/repos/workspaces.ts';
import { spendMonth } from './clock.ts';
import { errors } from './errors.ts';

export type LedgerReason = 'grant' | 'ingest_page' | 'cell_charge' | 'search';

export interface CreditChange {
  workspaceId: string;
  /** Positive adds credits, negative removes them. */
  amount: number;
  reason: LedgerReason;
  refId?: string | null;
  actorId?: string | null;
  /** Spending (not admin grants) also counts against the month's spend cap. */
  isSpend?: boolean;
  /** Admin grants may remove more than the balance; the balance then stops at 0. */
  clampAtZero?: boolean;
}

/** The month spend as it stands now: a stored figure from another month reads as 0. */
export function currentMonthSpend(w: Pick<WorkspaceRow, 'month_spend' | 'spend_month'>, now: number): number {
  return w.spend_month === spendMonth(now) ? w.month_spend : 0;
}

/**
 * Moves credits and writes the ledger row in the caller's transaction, so the balance and
 * the state change that caused it commit or roll back together. Returns the workspace after.
 */
export async function changeBalance(
  tx: Queryable,
  change: CreditChange,
  now = Date.now(),
): Promise<WorkspaceRow> {
  const w = await findWorkspace(tx, change.workspaceId, { forUpdate: true });
  if (!w) throw errors.notFound('Workspace');
  let amount = change.amount;
  if (w.balance + amount < 0) {
    if (!change.clampAtZero) throw errors.paymentRequired('Insufficient credits.', { balance: w.balance });
    amount = -w.balance;
  }
  const balance = w.balance + amount;
  const month = spendMonth(now);
  const monthSpend = currentMonthSpend(w, now) + (change.isSpend ? -amount : 0);
  await updateWorkspace(tx, w.id, { balance, month_spend: monthSpend, spend_month: month }, now);
  if (amount !== 0) {
    await insertLedgerRow(tx, {
      id: newId('ledg'),
      workspace_id: w.id,
      amount,
      balance_after: balance,
      reason: change.reason,
      ref_id: change.refId ?? null,
      actor_id: change.actorId ?? null,
      created_at: now,
    });
  }
  return { ...w, balance, month_spend: monthSpend, spend_month: month, updated_at: now };
}
