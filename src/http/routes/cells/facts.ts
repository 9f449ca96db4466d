import { listFactsOfCell } from '../../../domain/cell-history.ts';
import type { App, AppContext } from '../../context.ts';
import { keySecurity } from '../../kit/security.ts';
import { Envelope, EpochMs, Nullable, ok, Type } from '../../schema.ts';
import { CellParams, cellBase } from './schemas.ts';

/** interface.md 2.6. */
export const CellFactSchema = Type.Object({
  id: Type.String(),
  cellId: Type.String(),
  fileId: Type.String(),
  role: Nullable(Type.String()),
  effectiveAt: Nullable(EpochMs),
  sortOrder: Type.Integer(),
  status: Type.String(),
  value: Type.String({ description: 'JSON text; "null" when the document gave no value' }),
  citations: Type.String({ description: 'JSON text: an array of {datasetId, page, quote, box}' }),
  confidence: Nullable(Type.Number()),
  createdAt: EpochMs,
});

const schema = {
  tags: ['cells'],
  summary: "Per-document workings of the cell's latest answer, by sortOrder",
  description: 'Spec: interface.md 4.4.',
  security: keySecurity,
  params: CellParams,
  response: { 200: Envelope(Type.Array(CellFactSchema)) },
};

/** interface.md 4.4. */
export function listFactsRoute(app: App, ctx: AppContext): void {
  app.get(`${cellBase}/facts`, { config: { access: 'read' }, schema }, async (request) =>
    ok(await listFactsOfCell(ctx.db, request.params.tableId, request.params.cellId)),
  );
}
