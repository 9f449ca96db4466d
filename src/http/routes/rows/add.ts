import { addRow } from '../../../domain/rows.ts';
import type { App, AppContext } from '../../context.ts';
import { RowSchema } from '../../kit/model-schemas.ts';
import { TableParams } from '../../kit/params.ts';
import { keySecurity } from '../../kit/security.ts';
import { Body, Envelope, ok, Type } from '../../schema.ts';

const schema = {
  tags: ['rows'],
  summary:
    'Add a row for a file or a bundle of this workspace (free; the same subject twice returns the existing row)',
  description: 'Spec: decisions.md D2.',
  security: keySecurity,
  params: TableParams,
  body: Body({
    subjectType: Type.Union([Type.Literal('file'), Type.Literal('bundle')]),
    subjectId: Type.String({ minLength: 1, maxLength: 80 }),
    sortOrder: Type.Optional(Type.Integer({ minimum: 0, maximum: 2_147_483_647 })),
  }),
  response: { 200: Envelope(RowSchema) },
};

export function addRowRoute(app: App, ctx: AppContext): void {
  app.post(
    '/v2/workspaces/:workspaceId/tables/:tableId/rows',
    { config: { access: 'read_write', idempotent: true }, schema },
    async (request) =>
      ok(await addRow(ctx.db, request.params.workspaceId, request.params.tableId, request.body, ctx.now)),
  );
}
