import type { Clock } from '../infra/clock.ts';
import type { Database, Queryable } from '../infra/db/database.ts';
import { newId } from '../infra/ids.ts';
import { type ColumnRow, repos } from '../infra/repos/index.ts';
import { errors } from './errors.ts';
import { lockLiveTable } from './tables.ts';

export const OUTPUT_TYPES = [
  'text_quote',
  'number',
  'date',
  'boolean',
  'categorical',
  'list_scalar',
  'image',
  'image_list',
] as const;
export type OutputType = (typeof OUTPUT_TYPES)[number];

export interface Column {
  id: string;
  tableId: string;
  name: string;
  prompt: string;
  outputType: string;
  config: string | null;
  isCompositional: boolean;
  creditRate: number;
  sortOrder: number;
  version: number;
  archivedAt: number | null;
  createdAt: number;
  updatedAt: number;
}

export interface ColumnInput {
  name?: string;
  prompt?: string;
  outputType?: OutputType;
  config?: string | null;
  isCompositional?: boolean;
  creditRate?: number;
  sortOrder?: number;
}

export function toColumn(c: ColumnRow): Column {
  return {
    id: c.id,
    tableId: c.table_id,
    name: c.name,
    prompt: c.prompt,
    outputType: c.output_type,
    config: c.config,
    isCompositional: c.is_compositional,
    creditRate: c.credit_rate,
    sortOrder: c.sort_order,
    version: c.version,
    archivedAt: c.archived_at,
    createdAt: c.created_at,
    updatedAt: c.updated_at,
  };
}

/** Section 3.2: only a changed prompt or output type bumps the version (and stales the cells). */
export function bumpsVersion(before: Pick<ColumnRow, 'prompt' | 'output_type'>, patch: ColumnInput): boolean {
  return (
    (patch.prompt !== undefined && patch.prompt !== before.prompt) ||
    (patch.outputType !== undefined && patch.outputType !== before.output_type)
  );
}

export async function listTableColumns(db: Queryable, tableId: string): Promise<Column[]> {
  return (await repos(db).columns.listColumns(tableId)).map(toColumn);
}

/** Free, and creates no cells (4.2). */
export async function createColumn(
  db: Database,
  workspaceId: string,
  tableId: string,
  input: ColumnInput & { name: string; prompt: string },
  clock: Clock,
): Promise<Column> {
  return db.transaction(async (tx) => {
    await lockLiveTable(tx, workspaceId, tableId);
    const now = clock();
    const row: ColumnRow = {
      id: newId('rcol'),
      table_id: tableId,
      name: input.name,
      prompt: input.prompt,
      output_type: input.outputType ?? 'text_quote',
      config: input.config ?? null,
      is_compositional: input.isCompositional ?? false,
      credit_rate: input.creditRate ?? 4,
      sort_order: input.sortOrder ?? (await repos(tx).columns.nextColumnSortOrder(tableId)),
      version: 1,
      archived_at: null,
      created_at: now,
      updated_at: now,
    };
    await repos(tx).columns.insertColumn(row);
    return toColumn(row);
  });
}

export async function patchColumn(
  db: Database,
  workspaceId: string,
  tableId: string,
  columnId: string,
  patch: ColumnInput,
  clock: Clock,
): Promise<Column> {
  return db.transaction(async (tx) => {
    await lockLiveTable(tx, workspaceId, tableId);
    const c = await repos(tx).columns.findColumn(tableId, columnId, { forUpdate: true });
    if (!c) throw errors.notFound('Column');
    if (c.archived_at !== null) throw errors.badRequest('Column is archived and can no longer be changed.');
    const changed: Partial<ColumnRow> = {};
    if (patch.name !== undefined && patch.name !== c.name) changed.name = patch.name;
    if (patch.prompt !== undefined && patch.prompt !== c.prompt) changed.prompt = patch.prompt;
    if (patch.outputType !== undefined && patch.outputType !== c.output_type)
      changed.output_type = patch.outputType;
    if (patch.config !== undefined && patch.config !== c.config) changed.config = patch.config;
    if (patch.isCompositional !== undefined && patch.isCompositional !== c.is_compositional)
      changed.is_compositional = patch.isCompositional;
    if (patch.creditRate !== undefined && patch.creditRate !== c.credit_rate)
      changed.credit_rate = patch.creditRate;
    if (patch.sortOrder !== undefined && patch.sortOrder !== c.sort_order)
      changed.sort_order = patch.sortOrder;
    if (Object.keys(changed).length === 0) return toColumn(c);
    if (bumpsVersion(c, patch)) changed.version = c.version + 1;
    const now = clock();
    await repos(tx).columns.updateColumn(columnId, changed, now);
    return toColumn({ ...c, ...changed, updated_at: now });
  });
}

/** Archived columns stay listed with readable cells and are never run (3.4); idempotent. */
export async function archiveColumn(
  db: Database,
  workspaceId: string,
  tableId: string,
  columnId: string,
  clock: Clock,
): Promise<Column> {
  return db.transaction(async (tx) => {
    const c = await repos(tx).columns.findColumn(tableId, columnId, { forUpdate: true });
    if (!c || !(await repos(tx).tables.findTable(workspaceId, tableId))) throw errors.notFound('Column');
    if (c.archived_at !== null) return toColumn(c);
    const now = clock();
    await repos(tx).columns.updateColumn(columnId, { archived_at: now }, now);
    return toColumn({ ...c, archived_at: now, updated_at: now });
  });
}
