import { toJobView } from '../../../domain/jobs.ts';
import { abortUploadSession, startUploadSession } from '../../../domain/upload-sessions.ts';
import { appendPart } from '../../../ingest/append-part.ts';
import { endUploadSession } from '../../../ingest/end-session.ts';
import type { App, AppContext } from '../../context.ts';
import { ok } from '../../schema.ts';
import { keySecurity } from '../tables/schemas.ts';
import { readFields } from './fields.ts';
import { AbortResponse, AppendResponse, EndResponse, StartResponse, tags } from './schemas.ts';

const consumes = ['multipart/form-data'];

/** v1 upload sessions (interface.md 4.8): a file sent in parts of 5-100 MB, assembled at end. */
export function registerUploadSessionRoutes(app: App, ctx: AppContext): void {
  const deps = () => ({
    db: ctx.db,
    blobs: ctx.blobs,
    idleMs: ctx.config.uploadSessionIdleMs,
    dataDir: ctx.config.dataDir,
  });

  app.post(
    '/v1/upload-session/start',
    {
      config: { access: 'read_write' },
      schema: {
        tags,
        summary: 'Start an upload session; returns the session key',
        description:
          'Fields: `fileName`, `fileExt`, `fileType` (MIME), `jobType` (`extract` or `vectorize`), `expiryInDays` ' +
          '(optional; -1 never, on silver and gold; at most 30 days on starter, 90 on bronze, 365 on silver). ' +
          'Keep the key secret: it is the only handle on the session. 402 when the balance cannot pay for one page.',
        consumes,
        security: keySecurity,
        response: { 200: StartResponse },
      },
    },
    async (request) => {
      const fields = await readFields(request, [
        'fileName',
        'fileExt',
        'fileType',
        'jobType',
        'expiryInDays',
      ]);
      return ok(await startUploadSession(ctx.db, request.principal!.workspaceId, fields));
    },
  );

  app.post(
    '/v1/upload-session/append',
    {
      config: { access: 'read_write' },
      schema: {
        tags,
        summary: 'Upload one part; returns its etag and part number (no `total`)',
        description:
          'Fields: `key`, `partNumber` (1-10,000), then `file` (the chunk, at most 100 MB). Every part except the ' +
          'last must be at least 5 MB. Sending a part number again replaces that part. The parts together may not ' +
          'pass the tier ceiling (starter 10 MB, bronze 25, silver 100, gold 300): 400.',
        consumes,
        security: keySecurity,
        response: { 200: AppendResponse },
      },
    },
    async (request) => ({
      success: true,
      data: await appendPart(deps(), request, request.principal!.workspaceId),
    }),
  );

  app.post(
    '/v1/upload-session/end',
    {
      config: { access: 'read_write' },
      schema: {
        tags,
        summary: 'Assemble the parts and start the job chosen at start; returns the job',
        description:
          'Fields: `key`, `parts` (JSON array of every append response, `{etag, partNumber}`). Parts must be ' +
          'numbered 1..n without gaps and match their etags. Poll GET /v1/jobs/{id}.',
        consumes,
        security: keySecurity,
        response: { 200: EndResponse },
      },
    },
    async (request) => {
      const fields = await readFields(request, ['key', 'parts']);
      const job = await endUploadSession(deps(), request.principal!.workspaceId, fields);
      ctx.notifyWork();
      return ok(toJobView(job, 'v1'));
    },
  );

  app.post(
    '/v1/upload-session/abort',
    {
      config: { access: 'read_write' },
      schema: {
        tags,
        summary: 'Abort an upload session; its chunks are deleted',
        consumes,
        security: keySecurity,
        response: { 200: AbortResponse },
      },
    },
    async (request) => {
      const fields = await readFields(request, ['key']);
      await abortUploadSession(deps(), request.principal!.workspaceId, fields.key);
      return { success: true };
    },
  );
}
