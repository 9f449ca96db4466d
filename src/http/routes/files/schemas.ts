import { EpochMs, Nullable, Type } from '../../schema.ts';

export const ShareSchema = Type.Object({
  url: Type.String(),
  token: Type.String(),
  expiresAt: Nullable(EpochMs),
});

export const FileSchema = Type.Object({
  id: Type.String(),
  workspaceId: Type.String(),
  type: Type.String(),
  fileName: Type.String(),
  fileExt: Type.String(),
  mimeType: Type.String(),
  fileSize: Type.Integer(),
  itemCount: Type.Integer(),
  createdAt: EpochMs,
  updatedAt: Nullable(EpochMs),
  expiresAt: Nullable(EpochMs),
  share: ShareSchema,
});

export const ItemSchema = Type.Object({
  id: Type.String(),
  fileId: Type.String(),
  row: Type.String(),
  col: Type.Integer(),
  createdAt: EpochMs,
  share: ShareSchema,
});

export const JobSchema = Type.Object({
  id: Type.String(),
  fileId: Type.Optional(Type.String()),
  datasetId: Type.Optional(Type.String()),
  type: Type.String(),
  status: Type.String(),
  statusText: Nullable(Type.String()),
  startedAt: Nullable(EpochMs),
  finishedAt: Nullable(EpochMs),
  canceledAt: Nullable(EpochMs),
  createdAt: EpochMs,
  updatedAt: EpochMs,
});

/** Out-of-range lifetimes are clamped, not refused (4.6, 4.7). */
export const ExpiresInSeconds = Type.Optional(
  Type.Number({ description: 'share lifetime, clamped to 60-86,400; default 600' }),
);

export const PagedEnvelope = <T extends ReturnType<typeof Type.Array>>(data: T) =>
  Type.Object({
    success: Type.Boolean(),
    total: Type.Integer(),
    offset: Type.Integer(),
    limit: Type.Integer(),
    data,
  });

export const FileParams = Type.Object({
  workspaceId: Type.String({ maxLength: 80 }),
  fileId: Type.String({ maxLength: 80 }),
});
export const ListQuery = {
  offset: Type.Optional(Type.Integer()),
  limit: Type.Optional(Type.Integer()),
  sort: Type.Optional(Type.String({ maxLength: 200 })),
  expiresInSeconds: ExpiresInSeconds,
};
