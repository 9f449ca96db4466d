import { EpochMs, Nullable, Type } from '../../schema.ts';

export const TableSchema = Type.Object({
  id: Type.String(),
  workspaceId: Type.String(),
  name: Type.String(),
  standing: Type.Boolean(),
  color: Nullable(Type.String()),
  locale: Nullable(Type.String()),
  archivedAt: Nullable(EpochMs),
  createdAt: EpochMs,
  updatedAt: EpochMs,
});

/** Section 2.1 and 8: names 1-120, color and locale up to 16 characters. */
export const TableFields = {
  name: Type.String({ minLength: 1, maxLength: 120 }),
  standing: Type.Boolean(),
  locale: Nullable(Type.String({ maxLength: 16 })),
  color: Nullable(Type.String({ maxLength: 16 })),
};
