import { toJobView } from '../../../domain/jobs.ts';
import { endUploadSession } from '../../../ingest/end-session.ts';
import type { App, AppContext } from '../../context.ts';
import { keySecurity } from '../../kit/security.ts';
import { ok } from '../../schema.ts';
import { sessionDeps } from './deps.ts';
import { readFields } from './fields.ts';
import { consumes, EndResponse, tags } from './schemas.ts';

const schema = {
  tags,
  summary: 'Assemble the parts and start the job chosen at start; returns the job',
  description:
    'Fields: `key`, `parts` (JSON array of every append response, `{etag, partNumber}`). Parts must be ' +
    'numbered 1..n without gaps and match their etags. Poll GET /v1/jobs/{id}.' +
    ' Spec: interface.md 4.8.',
  consumes,
  security: keySecurity,
  response: { 200: EndResponse },
};

export function endUploadSessionRoute(app: App, ctx: AppContext): void {
  app.post(
    '/v1/upload-session/end',
    { config: { access: 'read_write', idempotent: true }, schema },
    async (request) => {
      const fields = await readFields(request, ['key', 'parts']);
      const job = await endUploadSession(sessionDeps(ctx), request.principal!.workspaceId, fields);
      ctx.notifyWork();
      return ok(toJobView(job, 'v1'));
    },
  );
}
