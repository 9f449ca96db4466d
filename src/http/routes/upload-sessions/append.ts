import { appendPart } from '../../../ingest/append-part.ts';
import type { App, AppContext } from '../../context.ts';
import { keySecurity } from '../../kit/security.ts';
import { sessionDeps } from './deps.ts';
import { AppendResponse, consumes, tags } from './schemas.ts';

const schema = {
  tags,
  summary: 'Upload one part; returns its etag and part number (no `total`)',
  description:
    'Fields: `key`, `partNumber` (1-10,000), then `file` (the chunk, at most 100 MB). Every part except the ' +
    'last must be at least 5 MB. Sending a part number again replaces that part. The parts together may not ' +
    'pass the tier ceiling (starter 10 MB, bronze 25, silver 100, gold 300): 400.' +
    ' Spec: interface.md 4.8.',
  consumes,
  security: keySecurity,
  response: { 200: AppendResponse },
};

export function appendUploadPartRoute(app: App, ctx: AppContext): void {
  app.post('/v1/upload-session/append', { config: { access: 'read_write' }, schema }, async (request) => ({
    success: true,
    data: await appendPart(sessionDeps(ctx), request, request.principal!.workspaceId),
  }));
}
