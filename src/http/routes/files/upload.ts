import { toJobView } from '../../../domain/jobs.ts';
import { acceptUpload } from '../../../ingest/accept-upload.ts';
import type { App, AppContext } from '../../context.ts';
import { JobSchema } from '../../kit/file-schemas.ts';
import { WorkspaceParams } from '../../kit/params.ts';
import { keySecurity } from '../../kit/security.ts';
import { Envelope, ok } from '../../schema.ts';

const schema = {
  tags: ['files'],
  summary: 'Upload a document (multipart `file`) or name one by `url`; returns the ingest job (NOT_STARTED)',
  description:
    'Fields: `file` (binary) or `url` (string), exactly one; `expiresInDays` (number, optional). Accepts PDF, DOC, DOCX, ' +
    'PPTX, XLSX, JPEG, PNG and WebP, recognised by content. 1 credit per page, charged as pages are produced. ' +
    'Poll GET /v2/workspaces/{workspaceId}/jobs/{jobId}.' +
    ' Spec: interface.md 4.6.',
  consumes: ['multipart/form-data'],
  security: keySecurity,
  params: WorkspaceParams,
  response: { 200: Envelope(JobSchema) },
};

export function uploadFileRoute(app: App, ctx: AppContext): void {
  app.post(
    '/v2/workspaces/:workspaceId/files',
    { config: { access: 'read_write', idempotent: true }, schema },
    async (request) => {
      const job = await acceptUpload(
        { db: ctx.db, blobs: ctx.blobs, dataDir: ctx.config.dataDir, clock: ctx.now },
        request,
        request.params.workspaceId,
        { type: 'extract', apiVersion: 'v2', status: 'NOT_STARTED' },
      );
      ctx.notifyWork();
      return ok(toJobView(job, 'v2'));
    },
  );
}
