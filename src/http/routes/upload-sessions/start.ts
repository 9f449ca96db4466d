import { startUploadSession } from '../../../domain/upload-sessions.ts';
import type { App, AppContext } from '../../context.ts';
import { keySecurity } from '../../kit/security.ts';
import { ok } from '../../schema.ts';
import { readFields } from './fields.ts';
import { consumes, StartResponse, tags } from './schemas.ts';

const schema = {
  tags,
  summary: 'Start an upload session; returns the session key',
  description:
    'Fields: `fileName`, `fileExt`, `fileType` (MIME), `jobType` (`extract` or `vectorize`), `expiryInDays` ' +
    '(optional; -1 never, on silver and gold; at most 30 days on starter, 90 on bronze, 365 on silver). ' +
    'Keep the key secret: it is the only handle on the session. 402 when the balance cannot pay for one page.' +
    ' Spec: interface.md 4.8.',
  consumes,
  security: keySecurity,
  response: { 200: StartResponse },
};

export function startUploadSessionRoute(app: App, ctx: AppContext): void {
  app.post('/v1/upload-session/start', { config: { access: 'read_write' }, schema }, async (request) => {
    const fields = await readFields(request, ['fileName', 'fileExt', 'fileType', 'jobType', 'expiryInDays']);
    return ok(await startUploadSession(ctx.db, request.principal!.workspaceId, fields, ctx.now));
  });
}
