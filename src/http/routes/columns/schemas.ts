import { OUTPUT_TYPES } from '../../../domain/columns.ts';
import { Nullable, Type } from '../../schema.ts';

export const OutputTypeSchema = Type.Union(OUTPUT_TYPES.map((t) => Type.Literal(t)));

/** Section 2.2 and 8 limits. */
export const ColumnFields = {
  name: Type.String({ minLength: 1, maxLength: 120 }),
  prompt: Type.String({ minLength: 1, maxLength: 4000 }),
  outputType: OutputTypeSchema,
  config: Nullable(Type.String({ maxLength: 4000, description: 'a JSON string, passed through verbatim' })),
  isCompositional: Type.Boolean(),
  creditRate: Type.Integer({ minimum: 4, maximum: 40 }),
  sortOrder: Type.Integer({ minimum: 0, maximum: 2_147_483_647 }),
};

/** Every column field made optional: a patch may send any of them, a create must send name and prompt. */
export const OptionalColumnFields = Object.fromEntries(
  Object.entries(ColumnFields).map(([k, v]) => [k, Type.Optional(v)]),
) as {
  [K in keyof typeof ColumnFields]: ReturnType<typeof Type.Optional<(typeof ColumnFields)[K]>>;
};

export const ColumnParams = Type.Object({
  workspaceId: Type.String({ maxLength: 80 }),
  tableId: Type.String({ maxLength: 80 }),
  columnId: Type.String({ maxLength: 80 }),
});
