import { OUTPUT_TYPES } from '../../../domain/columns.ts';
import { EpochMs, Nullable, Type } from '../../schema.ts';

export const OutputTypeSchema = Type.Union(OUTPUT_TYPES.map((t) => Type.Literal(t)));

/** Section 2.2 and 8 limits. */
export const ColumnFields = {
  name: Type.String({ minLength: 1, maxLength: 120 }),
  prompt: Type.String({ minLength: 1, maxLength: 4000 }),
  outputType: OutputTypeSchema,
  config: Nullable(Type.String({ maxLength: 4000, description: 'a JSON string, passed through verbatim' })),
  isCompositional: Type.Boolean(),
  creditRate: Type.Integer({ minimum: 4, maximum: 40 }),
  sortOrder: Type.Integer({ minimum: 0, maximum: 2_147_483_647 }),
};

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

export const ColumnParams = Type.Object({
  workspaceId: Type.String({ maxLength: 80 }),
  tableId: Type.String({ maxLength: 80 }),
  columnId: Type.String({ maxLength: 80 }),
});
export const RowParams = Type.Object({
  workspaceId: Type.String({ maxLength: 80 }),
  tableId: Type.String({ maxLength: 80 }),
  rowId: Type.String({ maxLength: 80 }),
});
