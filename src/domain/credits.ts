import type { Queryable } from '../infra/db/database.ts';
import { newId } from '../infra/ids.ts';
import { type HoldRow, type LedgerRow, repos, type WorkspaceRow } from '../infra/repos/index.ts';
import { spendMonth } from './clock.ts';
import { errors } from './errors.ts';

export type LedgerReason = 'grant' | 'ingest_page' | 'cell_hold' | 'cell_capture' | 'cell_release' | 'search';

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
export async function changeBalance(tx: Queryable, change: CreditChange, now: number): Promise<WorkspaceRow> {
  const w = await repos(tx).workspaces.findWorkspace(change.workspaceId, { forUpdate: true });
  if (!w) throw errors.notFound('Workspace');
  let amount = change.amount;
  if (w.balance + amount < 0) {
    if (!change.clampAtZero) throw errors.paymentRequired('Insufficient credits.', { balance: w.balance });
    amount = -w.balance;
  }
  const balance = w.balance + amount;
  const month = spendMonth(now);
  const monthSpend = currentMonthSpend(w, now) + (change.isSpend ? -amount : 0);
  await repos(tx).workspaces.updateWorkspace(
    w.id,
    { balance, month_spend: monthSpend, spend_month: month },
    now,
  );
  if (amount !== 0) {
    await repos(tx).ledger.insertLedgerRow({
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

/**
 * D4: a cell's price leaves the balance when a worker starts it (a hold), so the balance is
 * always grants minus charges minus what cells in progress hold. Holds many cells of one
 * workspace, which the caller has locked and checked each price against; the holds, their
 * ledger rows and the balance commit with the cells' move to IN_PROGRESS. Returns the hold
 * ids in the order of `items`.
 */
export async function holdCredits(
  tx: Queryable,
  w: WorkspaceRow,
  items: readonly { cellId: string; runId: string; amount: number }[],
  now: number,
): Promise<string[]> {
  let balance = w.balance;
  const holds: HoldRow[] = [];
  const ledger: LedgerRow[] = [];
  for (const it of items) {
    balance -= it.amount;
    if (balance < 0) throw new Error('holdCredits: the caller let a price past the balance');
    const id = newId('hold');
    holds.push({
      id,
      workspace_id: w.id,
      cell_id: it.cellId,
      run_id: it.runId,
      amount: it.amount,
      state: 'held',
      created_at: now,
      settled_at: null,
    });
    ledger.push(ledgerRow(w.id, -it.amount, balance, 'cell_hold', id, now));
  }
  if (holds.length === 0) return [];
  await repos(tx).holds.insertHolds(holds);
  await repos(tx).workspaces.updateWorkspace(w.id, { balance }, now);
  await repos(tx).ledger.insertLedgerRows(ledger);
  return holds.map((h) => h.id);
}

/**
 * Ends holds once each (those already settled are skipped, so nothing is charged twice).
 * `captured` (SUCCESS): the balance already went down when the price was held, so each ledger
 * row moves 0 credits and marks the moment of charge, and the month's spend goes up.
 * `released` (ERROR, cancel, takeover): the credits go back to the balance.
 */
export async function settleCredits(
  tx: Queryable,
  holdIds: readonly string[],
  state: 'captured' | 'released',
  now: number,
): Promise<HoldRow[]> {
  const moved = await repos(tx).holds.settleHolds(holdIds, state, now);
  const byWorkspace = new Map<string, HoldRow[]>();
  for (const h of moved) byWorkspace.set(h.workspace_id, [...(byWorkspace.get(h.workspace_id) ?? []), h]);
  for (const id of [...byWorkspace.keys()].sort()) {
    const holds = byWorkspace.get(id)!;
    const w = await repos(tx).workspaces.findWorkspace(id, { forUpdate: true });
    if (!w) throw errors.notFound('Workspace');
    let balance = w.balance;
    const ledger: LedgerRow[] = [];
    for (const h of holds) {
      if (state === 'released') balance += h.amount;
      ledger.push(
        ledgerRow(
          id,
          state === 'released' ? h.amount : 0,
          balance,
          `cell_${state === 'captured' ? 'capture' : 'release'}`,
          h.id,
          now,
        ),
      );
    }
    if (state === 'captured') {
      const total = holds.reduce((sum, h) => sum + h.amount, 0);
      await repos(tx).workspaces.updateWorkspace(
        id,
        { month_spend: currentMonthSpend(w, now) + total, spend_month: spendMonth(now) },
        now,
      );
    } else {
      await repos(tx).workspaces.updateWorkspace(id, { balance }, now);
    }
    await repos(tx).ledger.insertLedgerRows(ledger);
  }
  return moved;
}

function ledgerRow(
  workspaceId: string,
  amount: number,
  balanceAfter: number,
  reason: LedgerReason,
  refId: string,
  now: number,
): LedgerRow {
  return {
    id: newId('ledg'),
    workspace_id: workspaceId,
    amount,
    balance_after: balanceAfter,
    reason,
    ref_id: refId,
    actor_id: null,
    created_at: now,
  };
}
