import { startColumnRun } from '../../../domain/runs.ts';
import type { App, AppContext } from '../../context.ts';
import { keySecurity } from '../../kit/security.ts';
import { Envelope, ok } from '../../schema.ts';
import { RunRefusalSchema, StartedRunSchema } from '../runs/schemas.ts';
import { ColumnParams } from './schemas.ts';

const schema = {
  tags: ['columns'],
  summary: 'Run one column over every row (same as start run, scoped to the column)',
  description: 'Spec: interface.md 4.2, 4.3.',
  security: keySecurity,
  params: ColumnParams,
  response: { 200: Envelope(StartedRunSchema), 402: RunRefusalSchema },
};

export function runColumnRoute(app: App, ctx: AppContext): void {
  app.post(
    '/v2/workspaces/:workspaceId/tables/:tableId/columns/:columnId/run',
    { config: { access: 'read_write', idempotent: true }, schema },
    async (request) => {
      const out = await startColumnRun(
        ctx.db,
        { ...request.params, triggeredBy: request.principal!.keyId },
        ctx.now,
      );
      if (out.run) ctx.notifyWork();
      return ok(out);
    },
  );
}
