import { listJobs, toJobView } from '../../../domain/jobs.ts';
import type { App, AppContext } from '../../context.ts';
import { keySecurity } from '../../kit/security.ts';
import { Type } from '../../schema.ts';
import { V1JobSchema, V1ListQuery, v1Tags } from './schemas.ts';

const schema = {
  tags: v1Tags,
  summary: 'Jobs, newest first; finished jobs drop from the list 24 hours after finishing',
  description: 'Spec: interface.md 4.9.',
  security: keySecurity,
  querystring: Type.Object({
    statuses: Type.Optional(
      Type.String({
        maxLength: 200,
        description: 'comma-separated: NOT_STARTED, IN_QUEUE, IN_PROGRESS, SUCCESS, ERROR; default all',
      }),
    ),
    ...V1ListQuery,
  }),
  response: {
    200: Type.Object({
      success: Type.Boolean(),
      statuses: Type.Array(Type.String()),
      sort: Type.Array(Type.String()),
      total: Type.Integer(),
      offset: Type.Integer(),
      limit: Type.Integer(),
      data: Type.Array(V1JobSchema),
    }),
  },
};

export function listV1JobsRoute(app: App, ctx: AppContext): void {
  app.get('/v1/jobs', { config: { access: 'read' }, schema }, async (request) => {
    const now = ctx.now();
    const res = await listJobs(ctx.db, request.principal!.workspaceId, request.query, now);
    return {
      success: true,
      statuses: res.statuses,
      sort: res.sort,
      total: res.total,
      offset: res.offset,
      limit: res.limit,
      data: res.rows.map((j) => toJobView(j, 'v1')),
    };
  });
}
