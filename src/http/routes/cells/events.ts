import { listEventsOfCell } from '../../../domain/cell-history.ts';
import type { App, AppContext } from '../../context.ts';
import { keySecurity } from '../../kit/security.ts';
import { Envelope, EpochMs, Nullable, ok, Type } from '../../schema.ts';
import { CellParams, cellBase } from './schemas.ts';

/** interface.md 2.5. */
export const CellEventSchema = Type.Object({
  id: Type.String(),
  cellId: Type.String(),
  type: Type.String({ description: 'override_set or override_cleared' }),
  data: Type.String({
    description:
      'JSON text. override_set: {value, priorValue, priorOverride}; override_cleared: {priorOverride}',
  }),
  actorId: Nullable(Type.String()),
  createdAt: EpochMs,
});

const schema = {
  tags: ['cells'],
  summary: "The cell's append-only event log, oldest first",
  description: 'Spec: interface.md 4.4.',
  security: keySecurity,
  params: CellParams,
  response: { 200: Envelope(Type.Array(CellEventSchema)) },
};

/** interface.md 4.4. */
export function listEventsRoute(app: App, ctx: AppContext): void {
  app.get(`${cellBase}/events`, { config: { access: 'read' }, schema }, async (request) =>
    ok(await listEventsOfCell(ctx.db, request.params.tableId, request.params.cellId)),
  );
}
