import { EpochMs, Nullable, Type } from '../../schema.ts';

export const TierSchema = Type.Union(
  [Type.Literal('starter'), Type.Literal('bronze'), Type.Literal('silver'), Type.Literal('gold')],
  { description: 'Plan tier: upload size ceiling and pages per job' },
);

export const WorkspaceSchema = Type.Object({
  id: Type.String(),
  name: Type.String(),
  tier: TierSchema,
  balance: Type.Integer(),
  spendCap: Nullable(Type.Integer()),
  monthSpend: Type.Integer(),
  createdAt: EpochMs,
  updatedAt: EpochMs,
});

export const KeyLevelSchema = Type.Union([Type.Literal('read'), Type.Literal('read_write')]);

export const ApiKeySchema = Type.Object({
  id: Type.String(),
  workspaceId: Type.String(),
  level: KeyLevelSchema,
  last4: Type.String(),
  expiresAt: Nullable(EpochMs),
  revokedAt: Nullable(EpochMs),
  lastUsedAt: Nullable(EpochMs),
  createdAt: EpochMs,
});

export const adminRoute = { access: 'admin' as const };
export const adminSecurity = [{ adminToken: [] }];
export const WorkspaceParams = Type.Object({ id: Type.String({ maxLength: 80 }) });
