import { getJob, toJobView } from '../../../domain/jobs.ts';
import type { App, AppContext } from '../../context.ts';
import { keySecurity } from '../../kit/security.ts';
import { Envelope, ok, Type } from '../../schema.ts';
import { V1JobSchema, v1Tags } from './schemas.ts';

const schema = {
  tags: v1Tags,
  summary: 'One job, finished or not',
  description: 'Spec: interface.md 4.9.',
  security: keySecurity,
  params: Type.Object({ id: Type.String({ maxLength: 80 }) }),
  response: { 200: Envelope(V1JobSchema) },
};

export function getV1JobRoute(app: App, ctx: AppContext): void {
  app.get('/v1/jobs/:id', { config: { access: 'read' }, schema }, async (request) =>
    ok(toJobView(await getJob(ctx.db, request.principal!.workspaceId, request.params.id), 'v1')),
  );
}
