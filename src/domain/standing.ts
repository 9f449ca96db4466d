import type { Queryable } from '../infra/db/database.ts';
import { newId } from '../infra/ids.ts';
import { repos } from '../infra/repos/index.ts';
import { AUTO_TRIGGER, queueRun } from './runs.ts';

/**
 * D2: when a file's ingest succeeds, every standing table of its workspace gets a row for it
 * and a run over that row, triggered by `system:auto`. Runs in the transaction that marks the
 * job SUCCESS, so a crash never leaves a ready file without its rows. A workspace at its spend
 * cap or out of credits gets the row but no run (the same refusal a manual start would meet).
 * Returns the runs started and runs to settle after commit.
 */
export async function runStandingTables(
  tx: Queryable,
  file: { id: string; workspace_id: string },
  now: number,
): Promise<{ started: string[]; superseded: string[] }> {
  const started: string[] = [];
  const superseded: string[] = [];
  for (const table of await repos(tx).tables.lockStandingTables(file.workspace_id)) {
    let row = await repos(tx).rows.findRowBySubject(table.id, 'file', file.id);
    if (!row) {
      row = {
        id: newId('rrow'),
        table_id: table.id,
        subject_type: 'file',
        subject_id: file.id,
        sort_order: await repos(tx).rows.nextRowSortOrder(table.id),
        archived_at: null,
        created_at: now,
        updated_at: now,
      };
      await repos(tx).rows.insertRow(row);
    }
    if (row.archived_at !== null) continue;
    const res = await queueRun(
      tx,
      { workspaceId: file.workspace_id, tableId: table.id, triggeredBy: AUTO_TRIGGER, rowIds: [row.id] },
      now,
    );
    if (res.queued.kind === 'started') started.push(res.queued.runId);
    superseded.push(...res.superseded);
  }
  return { started, superseded };
}
