import type { Clock } from '../infra/clock.ts';
import type { Database, Queryable } from '../infra/db/database.ts';
import { newId } from '../infra/ids.ts';
import { type RowRow, repos } from '../infra/repos/index.ts';
import { errors } from './errors.ts';
import { lockLiveTable } from './tables.ts';

export interface Row {
  id: string;
  tableId: string;
  subjectType: 'file' | 'bundle';
  subjectId: string;
  sortOrder: number;
  archivedAt: number | null;
  createdAt: number;
  updatedAt: number;
}

export function toRow(r: RowRow): Row {
  return {
    id: r.id,
    tableId: r.table_id,
    subjectType: r.subject_type,
    subjectId: r.subject_id,
    sortOrder: r.sort_order,
    archivedAt: r.archived_at,
    createdAt: r.created_at,
    updatedAt: r.updated_at,
  };
}

export async function listTableRows(db: Queryable, tableId: string): Promise<Row[]> {
  return (await repos(db).rows.listRows(tableId)).map(toRow);
}

/** D2: the subject must exist in the workspace; the same subject twice returns the existing row. */
export async function addRow(
  db: Database,
  workspaceId: string,
  tableId: string,
  input: { subjectType: 'file' | 'bundle'; subjectId: string; sortOrder?: number },
  clock: Clock,
): Promise<Row> {
  return db.transaction(async (tx) => {
    await lockLiveTable(tx, workspaceId, tableId);
    const existing = await repos(tx).rows.findRowBySubject(tableId, input.subjectType, input.subjectId);
    if (existing) return toRow(existing);
    const exists =
      input.subjectType === 'file'
        ? (await repos(tx).bundles.existingFileIds(workspaceId, [input.subjectId], clock())).size === 1
        : (await repos(tx).bundles.findBundle(workspaceId, input.subjectId)) !== null;
    if (!exists)
      throw errors.badRequest(
        `subjectId ${input.subjectId} is not a ${input.subjectType} of this workspace.`,
      );
    const now = clock();
    const row: RowRow = {
      id: newId('rrow'),
      table_id: tableId,
      subject_type: input.subjectType,
      subject_id: input.subjectId,
      sort_order: input.sortOrder ?? (await repos(tx).rows.nextRowSortOrder(tableId)),
      archived_at: null,
      created_at: now,
      updated_at: now,
    };
    await repos(tx).rows.insertRow(row);
    return toRow(row);
  });
}

export async function archiveTableRow(
  db: Database,
  tableId: string,
  rowId: string,
  clock: Clock,
): Promise<Row> {
  return db.transaction(async (tx) => {
    const r = await repos(tx).rows.findRow(tableId, rowId);
    if (!r) throw errors.notFound('Row');
    if (r.archived_at !== null) return toRow(r);
    const now = clock();
    await repos(tx).rows.archiveRow(rowId, now);
    return toRow({ ...r, archived_at: now, updated_at: now });
  });
}
