import type { Database, Queryable } from '../infra/db/database.ts';
import { type RunRow, repos } from '../infra/repos/index.ts';
import { emitEvent } from './webhooks.ts';

// How runs end (3.1): settled once nothing of theirs is pending, or canceled; either way the
// `run.finished` webhook event is queued in the same transaction.

/** `run.finished` for each run that just finished (settled or canceled), in the caller's transaction. */
export async function announceFinishedRuns(
  tx: Queryable,
  runs: readonly RunRow[],
  now: number,
): Promise<void> {
  for (const r of runs) {
    await emitEvent(
      tx,
      r.workspace_id,
      'run.finished',
      { runId: r.id, tableId: r.table_id, status: r.status, totalCells: r.total_cells },
      now,
    );
  }
}

/** Settles runs with nothing pending and announces those that finished, in one transaction. */
export async function settleRuns(db: Database, runIds: readonly string[], now: number): Promise<void> {
  if (runIds.length === 0) return;
  await db.transaction(async (tx) =>
    announceFinishedRuns(tx, await repos(tx).runs.settleRuns(runIds, now), now),
  );
}
