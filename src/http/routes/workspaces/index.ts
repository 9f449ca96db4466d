import { getWorkspace } from '../../../domain/workspaces.ts';
import type { App, AppContext } from '../../context.ts';
import { Envelope, EpochMs, Nullable, ok, Type } from '../../schema.ts';
import { keySecurity, WorkspaceParams } from '../tables/schemas.ts';

/**
 * Extensions for clients that hold only a key (the web app among them): a key does not
 * say which workspace it reaches, and interface.md shows no workspace record. Both are
 * read-only and free.
 */
const KeyInfoSchema = Type.Object({
  keyId: Type.String({ description: 'the API key id (wkskey_…), as runs and cell events record it' }),
  workspaceId: Type.String(),
  level: Type.Union([Type.Literal('read'), Type.Literal('read_write')]),
});

const WorkspaceViewSchema = Type.Object({
  id: Type.String(),
  name: Type.String(),
  tier: Type.String(),
  balance: Type.Integer({ description: 'credits left' }),
  spendCap: Nullable(Type.Integer({ description: 'monthly spend cap in credits; null means none' })),
  monthSpend: Type.Integer({ description: 'credits spent this calendar month (UTC)' }),
  createdAt: EpochMs,
  updatedAt: EpochMs,
});

export function registerWorkspaceRoutes(app: App, ctx: AppContext): void {
  app.get(
    '/v2/me',
    {
      config: { access: 'read' },
      schema: {
        tags: ['workspaces'],
        summary:
          'The calling key: its id, its workspace and its level (how a client learns the workspace id)',
        security: keySecurity,
        response: { 200: Envelope(KeyInfoSchema) },
      },
    },
    async (request) => {
      // The auth hook has authenticated the key before any route with access 'read' runs.
      const p = request.principal!;
      return ok({ keyId: p.keyId, workspaceId: p.workspaceId, level: p.level });
    },
  );

  app.get(
    '/v2/workspaces/:workspaceId',
    {
      config: { access: 'read' },
      schema: {
        tags: ['workspaces'],
        summary: 'The workspace of the key: name, tier, credit balance, spend cap and month spend',
        security: keySecurity,
        params: WorkspaceParams,
        response: { 200: Envelope(WorkspaceViewSchema) },
      },
    },
    async (request) => ok(await getWorkspace(ctx.db, request.params.workspaceId)),
  );
}
