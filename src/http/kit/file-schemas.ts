import { EpochMs, Nullable, Type } from '../schema.ts';

/**
 * File, share link and job as responses show them: v2 files and v1 datasets share the file
 * (interface.md 2.9), uploads, upload sessions and job polls the job (2.11), files, pages, search
 * hits and minted links the share (4.7, D9).
 */
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

/** The paged lists of files (4.6) and datasets (4.9): `offset` and `limit` beside the envelope. */
export const PagedEnvelope = <T extends ReturnType<typeof Type.Array>>(data: T) =>
  Type.Object({
    success: Type.Boolean(),
    total: Type.Integer(),
    offset: Type.Integer(),
    limit: Type.Integer(),
    data,
  });
