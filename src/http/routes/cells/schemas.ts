import { Type } from '../../schema.ts';

export const CellParams = Type.Object({
  workspaceId: Type.String({ maxLength: 80 }),
  tableId: Type.String({ maxLength: 80 }),
  cellId: Type.String({ maxLength: 80 }),
});

export const cellBase = '/v2/workspaces/:workspaceId/tables/:tableId/cells/:cellId';
