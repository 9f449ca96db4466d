import { EpochMs, Nullable, Type } from '../schema.ts';

/**
 * Column, row and cell as responses show them: each resource answers with its own, and GET table
 * answers with all three (interface.md 2.2-2.4, decisions.md D2).
 */
export const ColumnSchema = Type.Object({
  id: Type.String(),
  tableId: Type.String(),
  name: Type.String(),
  prompt: Type.String(),
  outputType: Type.String(),
  config: Nullable(Type.String()),
  isCompositional: Type.Boolean(),
  creditRate: Type.Integer(),
  sortOrder: Type.Integer(),
  version: Type.Integer(),
  archivedAt: Nullable(EpochMs),
  createdAt: EpochMs,
  updatedAt: EpochMs,
});

export const RowSchema = Type.Object({
  id: Type.String(),
  tableId: Type.String(),
  subjectType: Type.String(),
  subjectId: Type.String(),
  sortOrder: Type.Integer(),
  archivedAt: Nullable(EpochMs),
  createdAt: EpochMs,
  updatedAt: EpochMs,
});

export const CellSchema = Type.Object({
  id: Type.String(),
  rowId: Type.String(),
  columnId: Type.String(),
  status: Type.String(),
  statusText: Nullable(Type.String()),
  blockReason: Nullable(Type.String()),
  value: Type.Unknown(),
  citations: Type.Array(Type.Unknown()),
  confidence: Nullable(Type.Number()),
  humanOverride: Type.Unknown(),
  columnVersion: Type.Integer(),
  bundleVersion: Type.Integer(),
  stale: Type.Boolean(),
  createdAt: EpochMs,
  updatedAt: EpochMs,
});
