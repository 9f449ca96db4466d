import { errors } from '../../../domain/errors.ts';
import { previewRun } from '../../../domain/runs.ts';
import type { App, AppContext } from '../../context.ts';
import { TableParams } from '../../kit/params.ts';
import { keySecurity } from '../../kit/security.ts';
import { Envelope, ok, Type } from '../../schema.ts';
import { MAX_COLUMN_IDS, MAX_ROW_IDS } from './schemas.ts';

const schema = {
  tags: ['runs'],
  summary: 'What a run would cost (an upper bound) and which rows it would skip; free',
  description: 'Spec: interface.md 4.3.',
  security: keySecurity,
  params: TableParams,
  querystring: Type.Object({
    rowIds: Type.Optional(Type.String({ description: 'comma-separated row ids', maxLength: 50_000 })),
    columnIds: Type.Optional(Type.String({ description: 'comma-separated column ids', maxLength: 10_000 })),
  }),
  response: {
    200: Envelope(
      Type.Object({ cost: Type.Integer(), cells: Type.Integer(), skippedRowIds: Type.Array(Type.String()) }),
    ),
  },
};

/** A comma-separated list; an empty value is an empty list, as `[]` is in the POST body. */
function idList(name: string, value: string | undefined, max: number): string[] | undefined {
  if (value === undefined) return undefined;
  const ids = value
    .split(',')
    .map((s) => s.trim())
    .filter((s) => s.length > 0);
  if (ids.length > max) throw errors.badRequest(`${name} takes at most ${max} ids.`);
  return ids;
}

export function previewRunRoute(app: App, ctx: AppContext): void {
  app.get(
    '/v2/workspaces/:workspaceId/tables/:tableId/runs/preview',
    { config: { access: 'read' }, schema },
    async (request) => {
      const { workspaceId, tableId } = request.params;
      return ok(
        await previewRun(
          ctx.db,
          workspaceId,
          tableId,
          {
            rowIds: idList('rowIds', request.query.rowIds, MAX_ROW_IDS),
            columnIds: idList('columnIds', request.query.columnIds, MAX_COLUMN_IDS),
          },
          ctx.now(),
        ),
      );
    },
  );
}
