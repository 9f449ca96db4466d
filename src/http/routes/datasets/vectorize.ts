import { toJobView } from '../../../domain/jobs.ts';
import { requestVectorize } from '../../../domain/vectorize-request.ts';
import type { App, AppContext } from '../../context.ts';
import { keySecurity } from '../../kit/security.ts';
import { Envelope, ok } from '../../schema.ts';
import { DatasetParams, V1JobSchema, v1Tags } from './schemas.ts';

const schema = {
  tags: v1Tags,
  summary: 'Vectorize an uploaded dataset; 400 once a vectorize job has succeeded for it',
  description:
    'Pages already extracted are not charged again. While a vectorize job is unfinished, it is returned.' +
    ' Spec: interface.md 4.8.',
  security: keySecurity,
  params: DatasetParams,
  response: { 200: Envelope(V1JobSchema) },
};

export function vectorizeDatasetRoute(app: App, ctx: AppContext): void {
  app.post(
    '/v1/datasets/:id/vectorize',
    { config: { access: 'read_write', idempotent: true }, schema },
    async (request) => {
      const now = ctx.now();
      const job = await requestVectorize(ctx.db, request.principal!.workspaceId, request.params.id, now);
      ctx.notifyWork();
      return ok(toJobView(job, 'v1'));
    },
  );
}
