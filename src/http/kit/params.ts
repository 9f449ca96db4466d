import { Type } from '../schema.ts';

export const WorkspaceParams = Type.Object({ workspaceId: Type.String({ maxLength: 80 }) });
