import type { SubjectRow } from '../infra/repos/index.ts';
import { cellPrice } from './cost.ts';
import { errors } from './errors.ts';

export interface ScopeColumn {
  id: string;
  archived_at: number | null;
  credit_rate: number;
  is_compositional: boolean;
  version: number;
}

export interface ScopeRequest {
  rowIds?: readonly string[];
  columnIds?: readonly string[];
}

export interface ScopeTarget {
  rowId: string;
  columnId: string;
  price: number;
  columnVersion: number;
  bundleVersion: number;
}

export interface Scope {
  targets: ScopeTarget[];
  skippedRowIds: string[];
  /** Upper bound: every target succeeding, priced as it would be charged (8.5). */
  cost: number;
}

/** A row a run can read now: its document is ingested and readable, or its bundle has such members and none still processing. */
export function rowRunnable(r: SubjectRow): boolean {
  if (r.waiting > 0 || r.usable === 0) return false;
  return r.subject_type === 'file' || r.documents_version !== null;
}

/**
 * The cells a run targets (4.3 scope rules): both lists omitted means the whole table; given
 * lists union (every cell of those rows plus every cell of those columns); archived rows and
 * columns are never targeted; rows that cannot be read are skipped and listed; cells with a
 * human override are skipped silently. Ids that are not rows or columns of the table: 400.
 */
export function resolveScope(
  rows: readonly SubjectRow[],
  columns: readonly ScopeColumn[],
  overridden: ReadonlySet<string>,
  req: ScopeRequest,
): Scope {
  const known = (what: string, ids: readonly string[] | undefined, all: readonly { id: string }[]) => {
    if (!ids) return;
    const have = new Set(all.map((x) => x.id));
    const missing = ids.filter((id) => !have.has(id));
    if (missing.length > 0)
      throw errors.badRequest(`${what} not in this table: ${missing.slice(0, 5).join(', ')}.`);
  };
  known('rowIds', req.rowIds, rows);
  known('columnIds', req.columnIds, columns);

  const liveRows = rows.filter((r) => r.archived_at === null);
  const liveCols = columns.filter((c) => c.archived_at === null);
  const whole = req.rowIds === undefined && req.columnIds === undefined;
  const rowPick = new Set(req.rowIds ?? []);
  const colPick = new Set(req.columnIds ?? []);

  const targets: ScopeTarget[] = [];
  const skippedRowIds: string[] = [];
  let cost = 0;
  for (const r of liveRows) {
    const cols = whole || rowPick.has(r.id) ? liveCols : liveCols.filter((c) => colPick.has(c.id));
    if (cols.length === 0) continue;
    if (!rowRunnable(r)) {
      skippedRowIds.push(r.id);
      continue;
    }
    const members = r.subject_type === 'bundle' ? r.usable : null;
    for (const c of cols) {
      if (overridden.has(`${r.id} ${c.id}`)) continue;
      const price = cellPrice({ creditRate: c.credit_rate, isCompositional: c.is_compositional }, members);
      cost += price;
      targets.push({
        rowId: r.id,
        columnId: c.id,
        price,
        columnVersion: c.version,
        bundleVersion: r.documents_version ?? 1,
      });
    }
  }
  return { targets, skippedRowIds, cost };
}
