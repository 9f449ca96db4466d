import { ExpiresInSeconds, ShareSchema } from '../../kit/file-schemas.ts';
import { EpochMs, Type } from '../../schema.ts';

export const ItemSchema = Type.Object({
  id: Type.String(),
  fileId: Type.String(),
  row: Type.String(),
  col: Type.Integer(),
  createdAt: EpochMs,
  share: ShareSchema,
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
