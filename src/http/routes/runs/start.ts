import { startRun } from '../../../domain/runs.ts';
import type { App, AppContext } from '../../context.ts';
import { TableParams } from '../../kit/params.ts';
import { keySecurity } from '../../kit/security.ts';
import { Body, Envelope, ok, Type } from '../../schema.ts';
import { MAX_COLUMN_IDS, MAX_ROW_IDS, RunRefusalSchema, StartedRunSchema } from './schemas.ts';

const schema = {
  tags: ['runs'],
  summary: 'Start a run: rowIds and columnIds union; both omitted runs the whole table',
  description: 'Spec: interface.md 4.3.',
  security: keySecurity,
  params: TableParams,
  body: Type.Optional(
    Body({
      rowIds: Type.Optional(Type.Array(Type.String({ maxLength: 80 }), { maxItems: MAX_ROW_IDS })),
      columnIds: Type.Optional(Type.Array(Type.String({ maxLength: 80 }), { maxItems: MAX_COLUMN_IDS })),
    }),
  ),
  response: { 200: Envelope(StartedRunSchema), 402: RunRefusalSchema },
};

/** interface.md 4.3: returns at once; cells fill asynchronously. */
export function startRunRoute(app: App, ctx: AppContext): void {
  app.post(
    '/v2/workspaces/:workspaceId/tables/:tableId/runs',
    {
      config: { access: 'read_write', idempotent: true },
      schema,
      // Both lists are optional (4.3 rule 1), so a bare POST with no body runs the whole table.
      preValidation: async (request) => {
        request.body ??= {};
      },
    },
    async (request) => {
      const { workspaceId, tableId } = request.params;
      const out = await startRun(
        ctx.db,
        {
          workspaceId,
          tableId,
          triggeredBy: request.principal!.keyId,
          rowIds: request.body?.rowIds,
          columnIds: request.body?.columnIds,
        },
        ctx.now,
      );
      if (out.run) ctx.notifyWork();
      return ok(out);
    },
  );
}
