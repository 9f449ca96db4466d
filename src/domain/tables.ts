import type { Clock } from '../infra/clock.ts';
import type { Database, Queryable } from '../infra/db/database.ts';
import { newId } from '../infra/ids.ts';
import { repos, type TableRow } from '../infra/repos/index.ts';
import { errors } from './errors.ts';

export interface Table {
  id: string;
  workspaceId: string;
  name: string;
  standing: boolean;
  color: string | null;
  locale: string | null;
  archivedAt: number | null;
  createdAt: number;
  updatedAt: number;
}

export interface TableInput {
  name?: string;
  standing?: boolean;
  color?: string | null;
  locale?: string | null;
}

/** Locks a table for a change; 404 when absent, 400 once archived (there is no un-archive). */
export async function lockLiveTable(tx: Queryable, workspaceId: string, tableId: string): Promise<TableRow> {
  const t = await repos(tx).tables.findTable(workspaceId, tableId, { forUpdate: true });
  if (!t) throw errors.notFound('Table');
  if (t.archived_at !== null) throw errors.badRequest('Table is archived and can no longer be changed.');
  return t;
}

export function toTable(t: TableRow): Table {
  return {
    id: t.id,
    workspaceId: t.workspace_id,
    name: t.name,
    standing: t.standing,
    color: t.color,
    locale: t.locale,
    archivedAt: t.archived_at,
    createdAt: t.created_at,
    updatedAt: t.updated_at,
  };
}

export async function createTable(
  db: Database,
  workspaceId: string,
  input: TableInput & { name: string },
  now: number,
): Promise<Table> {
  const row: TableRow = {
    id: newId('rev'),
    workspace_id: workspaceId,
    name: input.name,
    standing: input.standing ?? false,
    color: input.color ?? null,
    locale: input.locale ?? null,
    archived_at: null,
    created_at: now,
    updated_at: now,
  };
  await repos(db).tables.insertTable(row);
  return toTable(row);
}

export async function listWorkspaceTables(db: Database, workspaceId: string): Promise<Table[]> {
  return (await repos(db).tables.listTables(workspaceId)).map(toTable);
}

export async function getTable(db: Queryable, workspaceId: string, tableId: string): Promise<Table> {
  const t = await repos(db).tables.findTable(workspaceId, tableId);
  if (!t) throw errors.notFound('Table');
  return toTable(t);
}

export async function patchTable(
  db: Database,
  workspaceId: string,
  tableId: string,
  patch: TableInput,
  clock: Clock,
): Promise<Table> {
  return db.transaction(async (tx) => {
    const t = await lockLiveTable(tx, workspaceId, tableId);
    const changed: Partial<TableRow> = {};
    if (patch.name !== undefined && patch.name !== t.name) changed.name = patch.name;
    if (patch.standing !== undefined && patch.standing !== t.standing) changed.standing = patch.standing;
    if (patch.color !== undefined && patch.color !== t.color) changed.color = patch.color;
    if (patch.locale !== undefined && patch.locale !== t.locale) changed.locale = patch.locale;
    if (Object.keys(changed).length === 0) return toTable(t);
    const now = clock();
    await repos(tx).tables.updateTable(tableId, changed, now);
    // The locale governs generated prose: every active column's answers go stale (3.2).
    if (changed.locale !== undefined) await repos(tx).columns.bumpActiveColumnVersions(tableId, now);
    return toTable({ ...t, ...changed, updated_at: now });
  });
}

/** Archiving is idempotent: a second DELETE returns the first archivedAt. */
export async function archiveTable(
  db: Database,
  workspaceId: string,
  tableId: string,
  clock: Clock,
): Promise<Table> {
  return db.transaction(async (tx) => {
    const t = await repos(tx).tables.findTable(workspaceId, tableId, { forUpdate: true });
    if (!t) throw errors.notFound('Table');
    if (t.archived_at !== null) return toTable(t);
    const now = clock();
    await repos(tx).tables.updateTable(tableId, { archived_at: now }, now);
    return toTable({ ...t, archived_at: now, updated_at: now });
  });
}
