import type { App } from '../../context.ts';
import { keySecurity } from '../../kit/security.ts';
import { Envelope, ok, Type } from '../../schema.ts';

const KeyInfoSchema = Type.Object({
  keyId: Type.String({ description: 'the API key id (wkskey_…), as runs and cell events record it' }),
  workspaceId: Type.String(),
  level: Type.Union([Type.Literal('read'), Type.Literal('read_write')]),
});

const schema = {
  tags: ['workspaces'],
  summary: 'The calling key: its id, its workspace and its level (how a client learns the workspace id)',
  description: 'Spec: interface.md 5.',
  security: keySecurity,
  response: { 200: Envelope(KeyInfoSchema) },
};

export function getMeRoute(app: App): void {
  app.get('/v2/me', { config: { access: 'read' }, schema }, async (request) => {
    // The auth hook has authenticated the key before any route with access 'read' runs.
    const p = request.principal!;
    return ok({ keyId: p.keyId, workspaceId: p.workspaceId, level: p.level });
  });
}
