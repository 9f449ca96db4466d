import { getJob, toJobView } from '../../../domain/jobs.ts';
import type { App, AppContext } from '../../context.ts';
import { JobSchema } from '../../kit/file-schemas.ts';
import { keySecurity } from '../../kit/security.ts';
import { Envelope, ok, Type } from '../../schema.ts';

const schema = {
  tags: ['files'],
  summary: 'Poll an ingest job (decisions.md D7)',
  description: 'Spec: decisions.md D7.',
  security: keySecurity,
  params: Type.Object({ workspaceId: Type.String({ maxLength: 80 }), jobId: Type.String({ maxLength: 80 }) }),
  response: { 200: Envelope(JobSchema) },
};

export function getJobRoute(app: App, ctx: AppContext): void {
  app.get(
    '/v2/workspaces/:workspaceId/jobs/:jobId',
    { config: { access: 'read' }, schema },
    async (request) =>
      ok(toJobView(await getJob(ctx.db, request.params.workspaceId, request.params.jobId), 'v2')),
  );
}
