import { Type } from '../schema.ts';

export const WorkspaceParams = Type.Object({ workspaceId: Type.String({ maxLength: 80 }) });

/** The path of everything under one table: its columns, rows, cells and runs. */
export const TableParams = Type.Object({
  workspaceId: Type.String({ maxLength: 80 }),
  tableId: Type.String({ maxLength: 80 }),
});
