import { toJobView } from '../../../domain/jobs.ts';
import type { JobRow } from '../../../infra/repos/jobs.ts';
import { acceptUpload } from '../../../ingest/accept-upload.ts';
import type { App, AppContext } from '../../context.ts';
import { Envelope, ok } from '../../schema.ts';
import { keySecurity } from '../tables/schemas.ts';
import { V1JobSchema, v1Tags } from './schemas.ts';

const schema = (type: JobRow['type'], summary: string) => ({
  tags: v1Tags,
  summary,
  description:
    'Fields: `file` (binary, up to 100 MB) or `url` (string), exactly one; `expiresInDays` (number, optional). ' +
    `Returns the job (type \`datasets/${type}\`, IN_PROGRESS); poll GET /v1/jobs/{id}. 1 credit per page.`,
  consumes: ['multipart/form-data'],
  security: keySecurity,
  response: { 200: Envelope(V1JobSchema) },
});

/** 4.8: the same upload as v2 files, in the key's workspace, answered with v1 naming. */
export function uploadDatasetRoutes(app: App, ctx: AppContext): void {
  const route = (path: string, type: JobRow['type'], summary: string) =>
    app.post(path, { config: { access: 'read_write' }, schema: schema(type, summary) }, async (request) => {
      const job = await acceptUpload(
        { db: ctx.db, blobs: ctx.blobs, dataDir: ctx.config.dataDir },
        request,
        request.principal!.workspaceId,
        { type, apiVersion: 'v1', status: 'IN_PROGRESS' },
      );
      ctx.notifyWork();
      return ok(toJobView(job, 'v1'));
    });
  route('/v1/extract', 'extract', 'Upload a document and extract its pages');
  route('/v1/vectorize', 'vectorize', 'Upload a document, extract its pages and make it searchable');
}
