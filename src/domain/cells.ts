import type { Queryable } from '../infra/db/database.ts';
import { type CellWithStale, repos } from '../infra/repos/index.ts';

export interface Cell {
  id: string;
  rowId: string;
  columnId: string;
  status: string;
  statusText: string | null;
  blockReason: string | null;
  value: unknown;
  citations: unknown[];
  confidence: number | null;
  humanOverride: unknown;
  columnVersion: number;
  bundleVersion: number;
  stale: boolean;
  createdAt: number;
  updatedAt: number;
}

/** D3: a cell that is not SUCCESS shows no value, no citations and no confidence. */
export function toCell(c: CellWithStale): Cell {
  const ok = c.status === 'SUCCESS';
  return {
    id: c.id,
    rowId: c.row_id,
    columnId: c.column_id,
    status: c.status,
    statusText: c.status_text,
    blockReason: c.block_reason,
    value: ok ? (c.value ?? null) : null,
    citations: ok ? (c.citations ?? []) : [],
    confidence: ok ? c.confidence : null,
    humanOverride: c.human_override ?? null,
    columnVersion: c.column_version,
    bundleVersion: c.bundle_version,
    stale: c.stale,
    createdAt: c.created_at,
    updatedAt: c.updated_at,
  };
}

export async function listTableCells(db: Queryable, tableId: string): Promise<Cell[]> {
  return (await repos(db).cells.listCellsWithStale(tableId)).map(toCell);
}
