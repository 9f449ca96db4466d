import { EpochMs, Nullable, Type } from '../../schema.ts';

export const RunSchema = Type.Object({
  id: Type.String(),
  tableId: Type.String(),
  status: Type.String(),
  triggeredBy: Type.String(),
  totalCells: Type.Integer(),
  pendingCells: Type.Integer(),
  startedAt: Nullable(EpochMs),
  finishedAt: Nullable(EpochMs),
  createdAt: EpochMs,
  updatedAt: EpochMs,
});

/** Section 8: up to 500 rowIds and 100 columnIds per run. */
export const MAX_ROW_IDS = 500;
export const MAX_COLUMN_IDS = 100;

export const StartedRunSchema = Type.Object({
  run: Type.Union([RunSchema, Type.Null()]),
  cells: Type.Integer(),
  skippedRowIds: Type.Array(Type.String()),
});

export const RunParams = Type.Object({
  workspaceId: Type.String({ maxLength: 80 }),
  tableId: Type.String({ maxLength: 80 }),
  runId: Type.String({ maxLength: 80 }),
});

/** The 402 of a run start (section 7): `cost` and `balance`, and `cap` when the cap caused it. */
export const RunRefusalSchema = Type.Object({
  success: Type.Boolean(),
  error: Type.String(),
  cost: Type.Integer(),
  balance: Type.Integer(),
  cap: Type.Optional(Type.Integer()),
});
