import type { Queryable } from '../infra/db/database.ts';
import { type CellEventRow, type CellFactRow, repos } from '../infra/repos/index.ts';
import { errors } from './errors.ts';

/** interface.md 2.5. */
export interface CellEvent {
  id: string;
  cellId: string;
  type: string;
  /** JSON text, to be parsed. */
  data: string;
  actorId: string | null;
  createdAt: number;
}

/** interface.md 2.6. */
export interface CellFact {
  id: string;
  cellId: string;
  fileId: string;
  role: string | null;
  effectiveAt: number | null;
  sortOrder: number;
  status: string;
  /** JSON text as stored; `"null"` when the fact has no value, so it always parses. */
  value: string;
  /** JSON text; inside, each citation's id is `datasetId` (2.6). */
  citations: string;
  confidence: number | null;
  createdAt: number;
}

export function toCellEvent(e: CellEventRow): CellEvent {
  return {
    id: e.id,
    cellId: e.cell_id,
    type: e.type,
    data: e.data,
    actorId: e.actor_id,
    createdAt: e.created_at,
  };
}

/**
 * Stored citations carry `fileId`; on the wire the facts' citations name it `datasetId`
 * (2.6), in the same place among the keys. Text that is not a JSON array is served as stored.
 */
export function citationsForWire(stored: string): string {
  let parsed: unknown;
  try {
    parsed = JSON.parse(stored);
  } catch {
    return stored;
  }
  if (!Array.isArray(parsed)) return stored;
  return JSON.stringify(
    parsed.map((c) =>
      typeof c === 'object' && c !== null && !Array.isArray(c) && 'fileId' in c
        ? Object.fromEntries(Object.entries(c).map(([k, v]) => [k === 'fileId' ? 'datasetId' : k, v]))
        : c,
    ),
  );
}

export function toCellFact(f: CellFactRow): CellFact {
  return {
    id: f.id,
    cellId: f.cell_id,
    fileId: f.file_id,
    role: f.role,
    effectiveAt: f.effective_at,
    sortOrder: f.sort_order,
    status: f.status,
    value: f.value ?? 'null',
    citations: citationsForWire(f.citations),
    confidence: f.confidence,
    createdAt: f.created_at,
  };
}

async function requireCell(db: Queryable, tableId: string, cellId: string): Promise<void> {
  if (!(await repos(db).cellOverrides.cellInTable(tableId, cellId))) throw errors.notFound('Cell');
}

/** The cell's append-only log, oldest first. */
export async function listEventsOfCell(db: Queryable, tableId: string, cellId: string): Promise<CellEvent[]> {
  await requireCell(db, tableId, cellId);
  return (await repos(db).cellEvents.listCellEvents(cellId)).map(toCellEvent);
}

/** The per-document workings of the cell's latest answer, by sortOrder. */
export async function listFactsOfCell(db: Queryable, tableId: string, cellId: string): Promise<CellFact[]> {
  await requireCell(db, tableId, cellId);
  return (await repos(db).cellFacts.listCellFacts(cellId)).map(toCellFact);
}
