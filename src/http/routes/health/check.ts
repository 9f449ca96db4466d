import { repos } from '../../../infra/repos/index.ts';
import type { App, AppContext } from '../../context.ts';
import { Envelope, ok, Type } from '../../schema.ts';

const schema = {
  tags: ['health'],
  summary: 'Liveness and database reachability; no key needed',
  description: 'Spec: decisions.md D10.',
  response: { 200: Envelope(Type.Object({ status: Type.Literal('ok'), database: Type.String() })) },
};

export function healthCheckRoute(app: App, ctx: AppContext): void {
  app.get('/healthz', { config: { access: 'public', rateLimit: false }, schema }, async () => {
    await repos(ctx.db).health.ping();
    return ok({ status: 'ok' as const, database: ctx.db.kind });
  });
}
