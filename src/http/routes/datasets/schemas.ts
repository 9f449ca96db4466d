import { ExpiresInSeconds, FileSchema, JobSchema, ShareSchema } from '../../kit/file-schemas.ts';
import { EpochMs, Type } from '../../schema.ts';

export const v1Tags = ['v1'];

/** A v1 dataset has exactly the fields of a v2 file (2.9). */
export const DatasetSchema = FileSchema;
export const V1JobSchema = JobSchema;

/** v1 names the file `datasetId` (9); 4.9 lists the other fields. */
export const DatasetItemSchema = Type.Object({
  id: Type.String(),
  datasetId: Type.String(),
  row: Type.String(),
  col: Type.Integer(),
  createdAt: EpochMs,
  share: ShareSchema,
});

export const DatasetParams = Type.Object({ id: Type.String({ maxLength: 80 }) });

export const V1ListQuery = {
  offset: Type.Optional(Type.Integer()),
  limit: Type.Optional(Type.Integer({ description: 'default 10; values over 100 are clamped to 100' })),
  sort: Type.Optional(Type.String({ maxLength: 200 })),
};

export { ExpiresInSeconds };

/** The paged body of the v1 lists: the applied sort beside offset, limit and total. */
export const SortedPage = <T extends ReturnType<typeof Type.Array>>(data: T) =>
  Type.Object({
    success: Type.Boolean(),
    sort: Type.Array(Type.String()),
    offset: Type.Integer(),
    limit: Type.Integer(),
    total: Type.Integer(),
    data,
  });
