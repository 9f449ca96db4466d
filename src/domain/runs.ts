import type { Clock } from '../infra/clock.ts';
import type { Database, Queryable } from '../infra/db/database.ts';
import { newId } from '../infra/ids.ts';
import { type RunWithPending, repos } from '../infra/repos/index.ts';
import { currentMonthSpend, settleCredits } from './credits.ts';
import { type AppError, errors } from './errors.ts';
import { resolveScope, type Scope, type ScopeRequest } from './run-scope.ts';
import { announceFinishedRuns, settleRuns } from './run-settle.ts';
import { lockLiveTable } from './tables.ts';

/** D3: the marker a standing table's automatic run carries in `triggeredBy`. */
export const AUTO_TRIGGER = 'system:auto';

export interface Run {
  id: string;
  tableId: string;
  status: string;
  triggeredBy: string;
  totalCells: number;
  pendingCells: number;
  startedAt: number | null;
  finishedAt: number | null;
  createdAt: number;
  updatedAt: number;
}

export function toRun(r: RunWithPending): Run {
  return {
    id: r.id,
    tableId: r.table_id,
    status: r.status,
    triggeredBy: r.triggered_by,
    totalCells: r.total_cells,
    pendingCells: r.pending_cells,
    startedAt: r.started_at,
    finishedAt: r.finished_at,
    createdAt: r.created_at,
    updatedAt: r.updated_at,
  };
}

async function scopeOf(q: Queryable, tableId: string, req: ScopeRequest, now: number): Promise<Scope> {
  // One after another: q may be a transaction's single connection.
  const rows = await repos(q).runSubjects.listSubjectRows(tableId, now);
  const columns = await repos(q).columns.listColumns(tableId);
  const overridden = await repos(q).cellQueue.listOverriddenPairs(tableId);
  return resolveScope(rows, columns, overridden, req);
}

/** GET …/runs/preview: free, and the same arithmetic as the charge. */
export async function previewRun(
  db: Queryable,
  workspaceId: string,
  tableId: string,
  req: ScopeRequest,
  now: number,
): Promise<{ cost: number; cells: number; skippedRowIds: string[] }> {
  const table = await repos(db).tables.findTable(workspaceId, tableId);
  if (!table) throw errors.notFound('Table');
  if (table.archived_at !== null) throw errors.badRequest('Table is archived; it can no longer be run.');
  const scope = await scopeOf(db, tableId, req, now);
  return { cost: scope.cost, cells: scope.targets.length, skippedRowIds: scope.skippedRowIds };
}

export interface StartedRun {
  run: Run | null;
  cells: number;
  skippedRowIds: string[];
}

type Queued =
  | { kind: 'refused'; error: AppError }
  | { kind: 'empty' }
  | { kind: 'started'; runId: string; cells: number };

/**
 * The core of a run start, inside the caller's transaction (the table already locked): the
 * 402 refusals before any work (the month's spend already at the cap, then a balance of
 * exactly 0), then every targeted cell queued. A cell another run had queued or started is
 * taken over by this one; a started cell's hold is released (its late answer is dropped), so
 * nothing is charged twice. `superseded` lists runs to settle once this commits.
 */
export async function queueRun(
  tx: Queryable,
  input: { workspaceId: string; tableId: string; triggeredBy: string } & ScopeRequest,
  now: number,
): Promise<{ queued: Queued; scope: Scope; superseded: string[] }> {
  const scope = await scopeOf(tx, input.tableId, input, now);
  if (scope.targets.length === 0) return { queued: { kind: 'empty' }, scope, superseded: [] };

  const w = await repos(tx).workspaces.findWorkspace(input.workspaceId);
  if (!w) throw errors.notFound('Workspace');
  const spent = currentMonthSpend(w, now);
  if (w.spend_cap !== null && spent >= w.spend_cap) {
    const error = errors.paymentRequired(
      `Spend cap reached: ${spent} of the month's ${w.spend_cap} credits are spent.`,
      {
        cost: scope.cost,
        balance: w.balance,
        cap: w.spend_cap,
      },
    );
    return { queued: { kind: 'refused', error }, scope, superseded: [] };
  }
  if (w.balance === 0) {
    const error = errors.paymentRequired(
      `Out of credits: this run may cost up to ${scope.cost} and the balance is 0.`,
      {
        cost: scope.cost,
        balance: 0,
      },
    );
    return { queued: { kind: 'refused', error }, scope, superseded: [] };
  }

  const runId = newId('rrun');
  const locked = await repos(tx).cellQueue.lockPairCells(
    input.tableId,
    scope.targets.map((t) => t.rowId),
    scope.targets.map((t) => t.columnId),
  );
  const superseded = new Set<string>();
  const dropped: string[] = [];
  for (const c of locked) {
    if (c.human_override !== null) continue;
    if (c.run_id && (c.status === 'IN_QUEUE' || c.status === 'IN_PROGRESS')) superseded.add(c.run_id);
    if (c.status === 'IN_PROGRESS' && c.hold_id) dropped.push(c.hold_id);
  }
  await settleCredits(tx, dropped, 'released', now);
  // Queue positions keep a run's cells in row-major order, after the workspace's earlier
  // runs, and interleaved with other workspaces' queued cells (fair across workspaces).
  const base = await repos(tx).cellQueue.allocateQueuePositions(
    input.workspaceId,
    await repos(tx).cellQueue.queueHead(),
    scope.targets.length,
  );
  const queued = await repos(tx).cellQueue.queueCells(
    input.tableId,
    runId,
    scope.targets.map((t, i) => ({ ...t, id: newId('rcel'), queuePos: base + i })),
    now,
  );
  if (queued.length === 0) return { queued: { kind: 'empty' }, scope, superseded: [...superseded] };
  await repos(tx).runs.insertRun({
    id: runId,
    table_id: input.tableId,
    workspace_id: input.workspaceId,
    status: 'IN_PROGRESS',
    triggered_by: input.triggeredBy,
    total_cells: queued.length,
    started_at: now,
    finished_at: null,
    created_at: now,
    updated_at: now,
  });
  return { queued: { kind: 'started', runId, cells: queued.length }, scope, superseded: [...superseded] };
}

/**
 * POST …/runs (4.3): returns at once; cells fill asynchronously. The time is read once the
 * table is locked, so queue positions follow the order runs of one table start in.
 */
export async function startRun(
  db: Database,
  input: { workspaceId: string; tableId: string; triggeredBy: string } & ScopeRequest,
  clock: Clock,
): Promise<StartedRun> {
  const out = await db.transaction(async (tx) => {
    await lockLiveTable(tx, input.workspaceId, input.tableId);
    const res = await queueRun(tx, input, clock());
    if (res.queued.kind === 'refused') throw res.queued.error;
    return res;
  });
  // Runs whose last pending cells this run took over are finished now.
  await settleRuns(db, out.superseded, clock());
  const skippedRowIds = out.scope.skippedRowIds;
  if (out.queued.kind !== 'started') return { run: null, cells: 0, skippedRowIds };
  const run = await repos(db).runs.findRun(input.tableId, out.queued.runId);
  return { run: run && toRun(run), cells: out.queued.cells, skippedRowIds };
}

export async function listTableRuns(db: Queryable, tableId: string): Promise<Run[]> {
  return (await repos(db).runs.listRuns(tableId)).map(toRun);
}

export async function getRun(db: Queryable, tableId: string, runId: string): Promise<Run> {
  const run = await repos(db).runs.findRun(tableId, runId);
  if (!run) throw errors.notFound('Run');
  return toRun(run);
}

/** 3.1: an unfinished run becomes CANCELED; a finished one answers 409. */
export async function cancelRun(db: Database, tableId: string, runId: string, clock: Clock): Promise<Run> {
  await db.transaction(async (tx) => {
    const run = await repos(tx).runs.findRun(tableId, runId);
    if (!run) throw errors.notFound('Run');
    const now = clock();
    const canceled = await repos(tx).runs.cancelRuns(tableId, [runId], now);
    if (canceled.length === 0) throw errors.conflict(`Run ${runId} already finished (${run.status}).`);
    await announceFinishedRuns(tx, await repos(tx).runs.findRunsByIds(canceled), now);
  });
  return getRun(db, tableId, runId);
}

/** Cancels every unfinished run of the table; with nothing in flight, `canceled: 0`. */
export async function cancelAllRuns(
  db: Database,
  tableId: string,
  clock: Clock,
): Promise<{ canceled: number; runs: Run[] }> {
  const ids = await db.transaction(async (tx) => {
    const now = clock();
    const canceled = await repos(tx).runs.cancelRuns(tableId, null, now);
    await announceFinishedRuns(tx, await repos(tx).runs.findRunsByIds(canceled), now);
    return canceled;
  });
  const set = new Set(ids);
  const runs = (await listTableRuns(db, tableId)).filter((r) => set.has(r.id));
  return { canceled: ids.length, runs };
}

/** POST …/columns/:columnId/run: a run scoped to one column (4.2); an archived column runs nothing. */
export async function startColumnRun(
  db: Database,
  input: { workspaceId: string; tableId: string; columnId: string; triggeredBy: string },
  clock: Clock,
): Promise<StartedRun> {
  if (!(await repos(db).columns.findColumn(input.tableId, input.columnId))) throw errors.notFound('Column');
  return startRun(db, { ...input, columnIds: [input.columnId] }, clock);
}
