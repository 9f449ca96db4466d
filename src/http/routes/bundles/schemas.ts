import { EpochMs, Id, Nullable, Type } from '../../schema.ts';

export const BundleSchema = Type.Object({
  id: Type.String(),
  workspaceId: Type.String(),
  name: Type.String(),
  color: Nullable(Type.String()),
  documentsVersion: Type.Integer(),
  archivedAt: Nullable(EpochMs),
  createdAt: EpochMs,
  updatedAt: EpochMs,
});
export const MemberSchema = Type.Object({
  fileId: Type.String(),
  isPrimary: Type.Boolean(),
  role: Nullable(Type.String()),
  effectiveAt: Nullable(EpochMs),
  sortOrder: Type.Integer(),
  createdAt: EpochMs,
  updatedAt: EpochMs,
});
export const WithFiles = Type.Object({ bundle: BundleSchema, files: Type.Array(MemberSchema) });
export const BundleParams = Type.Object({
  workspaceId: Type.String({ maxLength: 80 }),
  bundleId: Type.String({ maxLength: 80 }),
});
export const MemberParams = Type.Object({
  workspaceId: Type.String({ maxLength: 80 }),
  bundleId: Type.String({ maxLength: 80 }),
  fileId: Type.String({ maxLength: 80 }),
});
export const Name = Type.String({ minLength: 1, maxLength: 120 });
export const Color = Nullable(Type.String({ maxLength: 16 }));
export const Role = Nullable(Type.String({ maxLength: 120 }));
export const FileIds = (min: number) => Type.Array(Id('ds'), { minItems: min, maxItems: 15 });
