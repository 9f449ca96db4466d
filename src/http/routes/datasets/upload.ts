import type { FastifyRequest } from 'fastify';
import { toJobView } from '../../../domain/jobs.ts';
import type { JobRow } from '../../../infra/repos/index.ts';
import { acceptUpload } from '../../../ingest/accept-upload.ts';
import type { AppContext } from '../../context.ts';
import { keySecurity } from '../../kit/security.ts';
import { Envelope, ok } from '../../schema.ts';
import { V1JobSchema, v1Tags } from './schemas.ts';

/** /v1/extract and /v1/vectorize differ only in the job they start: one schema and handler serve both. */
export const uploadSchema = (type: JobRow['type'], summary: string) => ({
  tags: v1Tags,
  summary,
  description:
    'Fields: `file` (binary, up to 100 MB) or `url` (string), exactly one; `expiresInDays` (number, optional). ' +
    `Returns the job (type \`datasets/${type}\`, IN_PROGRESS); poll GET /v1/jobs/{id}. 1 credit per page.` +
    ' Spec: interface.md 4.8.',
  consumes: ['multipart/form-data'],
  security: keySecurity,
  response: { 200: Envelope(V1JobSchema) },
});

/** 4.8: the same upload as v2 files, in the key's workspace, answered with v1 naming. */
export const acceptV1Upload = (ctx: AppContext, type: JobRow['type']) => async (request: FastifyRequest) => {
  const job = await acceptUpload(
    { db: ctx.db, blobs: ctx.blobs, dataDir: ctx.config.dataDir, clock: ctx.now },
    request,
    request.principal!.workspaceId,
    { type, apiVersion: 'v1', status: 'IN_PROGRESS' },
  );
  ctx.notifyWork();
  return ok(toJobView(job, 'v1'));
};
