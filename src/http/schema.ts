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

export const Id = (prefix: string) =>
  Type.String({ pattern: `^${prefix}_[0-9A-Za-z]{1,64}$`, maxLength: 80 });
export const EpochMs = Type.Integer({ minimum: 0, description: 'epoch milliseconds' });
