import { JobSchema } from '../../kit/file-schemas.ts';
import { Envelope, Type } from '../../schema.ts';

export const tags = ['v1 upload sessions'];

export const StartResponse = Envelope(Type.Object({ key: Type.String() }));

/** 4.8: the append response carries no `total`, unlike the usual envelope. */
export const AppendResponse = Type.Object({
  success: Type.Boolean(),
  data: Type.Object({ etag: Type.String(), partNumber: Type.Integer() }),
});

export const EndResponse = Envelope(JobSchema);

export const AbortResponse = Type.Object({ success: Type.Boolean() });

/** Every step is a multipart form, the steps that carry no file included. */
export const consumes = ['multipart/form-data'];
