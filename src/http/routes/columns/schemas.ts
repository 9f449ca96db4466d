import { Type } from '../../schema.ts';
import { ColumnFields } from '../tables/model-schemas.ts';

/** Every column field made optional: a patch may send any of them, a create must send name and prompt. */
export const OptionalColumnFields = Object.fromEntries(
  Object.entries(ColumnFields).map(([k, v]) => [k, Type.Optional(v)]),
) as {
  [K in keyof typeof ColumnFields]: ReturnType<typeof Type.Optional<(typeof ColumnFields)[K]>>;
};
