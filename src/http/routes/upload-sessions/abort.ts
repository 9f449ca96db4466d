import { abortUploadSession } from '../../../domain/upload-sessions.ts';
import type { App, AppContext } from '../../context.ts';
import { keySecurity } from '../../kit/security.ts';
import { sessionDeps } from './deps.ts';
import { readFields } from './fields.ts';
import { AbortResponse, consumes, tags } from './schemas.ts';

const schema = {
  tags,
  summary: 'Abort an upload session; its chunks are deleted',
  description: 'Spec: interface.md 4.8.',
  consumes,
  security: keySecurity,
  response: { 200: AbortResponse },
};

export function abortUploadSessionRoute(app: App, ctx: AppContext): void {
  app.post('/v1/upload-session/abort', { config: { access: 'read_write' }, schema }, async (request) => {
    const fields = await readFields(request, ['key']);
    await abortUploadSession(sessionDeps(ctx), request.principal!.workspaceId, fields.key);
    return { success: true };
  });
}
