import type { App, AppContext } from '../../context.ts';
import { Envelope, ok, Type } from '../../schema.ts';

export function registerHealthRoutes(app: App, ctx: AppContext): void {
  app.get(
    '/healthz',
    {
      config: { access: 'public', rateLimit: false },
      schema: {
        tags: ['health'],
        summary: 'Liveness and database reachability; no key needed',
        response: { 200: Envelope(Type.Object({ status: Type.Literal('ok'), database: Type.String() })) },
      },
    },
    async () => {
      await ctx.db.query('SELECT 1');
      return ok({ status: 'ok' as const, database: ctx.db.kind });
    },
  );
}
