import { Type } from '../../schema.ts';

export const RowParams = Type.Object({
  workspaceId: Type.String({ maxLength: 80 }),
  tableId: Type.String({ maxLength: 80 }),
  rowId: Type.String({ maxLength: 80 }),
});
