import { type Static, type TSchema, Type } from 'typebox';

export type { Static, TSchema };
export { Type };

/** `T | null` as `type: [T, "null"]`, which reads better in errors and OpenAPI than anyOf. */
export function Nullable<T extends TSchema>(schema: T) {
  const { type, ...rest } = schema as unknown as { type: string } & Record<string, unknown>;
  return Type.Unsafe<Static<T> | null>({ ...rest, type: [type, 'null'] });
}

/** Request bodies drop keys they do not declare (section 4: "stripped silently"). */
export function Body<P extends Record<string, TSchema>>(properties: P) {
  return Type.Object(properties, { additionalProperties: false });
}

/** The success envelope of section 1. */
export function Envelope<T extends TSchema>(data: T) {
  return Type.Object({ success: Type.Boolean(), total: Type.Integer(), data });
}

export function ok<T>(data: T, total?: number): { success: true; total: number; data: T } {
  return { success: true, total: total ?? (Array.isArray(data) ? data.length : 1), data };
}

/** Lists with paging carry `offset` and `limit` beside the envelope (4.6); `total` counts every match. */
export function okPage<T, V>(
  res: { rows: T[]; total: number; offset: number; limit: number },
  view: (row: T) => V,
) {
  return { success: true, total: res.total, offset: res.offset, limit: res.limit, data: res.rows.map(view) };
}

export const Id = (prefix: string) =>
  Type.String({ pattern: `^${prefix}_[0-9A-Za-z]{1,64}$`, maxLength: 80 });
export const EpochMs = Type.Integer({ minimum: 0, description: 'epoch milliseconds' });
