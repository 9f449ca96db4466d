import { AppError, errors } from '../../../domain/errors.ts';
import { verifyShare } from '../../../domain/share-tokens.ts';
import { BlobNotFoundError } from '../../../infra/blob/store.ts';
import { type RedemptionOutcome, repos } from '../../../infra/repos/index.ts';
import { originalKey } from '../../../ingest/keys.ts';
import type { App, AppContext } from '../../context.ts';
import { Type } from '../../schema.ts';

const schema = {
  tags: ['share'],
  summary: 'Redeem a share link: the page bytes (or the original file for a ds_ id); no API key',
  description: 'Spec: interface.md 4.7; decisions.md D9.',
  params: Type.Object({ fileItemId: Type.String({ maxLength: 80 }) }),
  querystring: Type.Object({ token: Type.String({ minLength: 1, maxLength: 128 }) }),
};

/** Where the bytes are and what they are, or null when the page or its document is gone. */
async function locate(ctx: AppContext, id: string) {
  if (id.startsWith('dsx_')) {
    const item = await repos(ctx.db).items.findItemById(id);
    const file = item
      ? await repos(ctx.db).files.findReadableFileAnyWorkspace(item.file_id, ctx.now())
      : null;
    return item && file
      ? { key: item.blob_key, type: item.mime_type, size: item.byte_size, workspaceId: file.workspace_id }
      : null;
  }
  const file = id.startsWith('ds_')
    ? await repos(ctx.db).files.findReadableFileAnyWorkspace(id, ctx.now())
    : null;
  return file
    ? {
        key: originalKey(file.id),
        type: file.mime_type,
        size: file.file_size,
        workspaceId: file.workspace_id,
      }
    : null;
}

export function redeemShareRoute(app: App, ctx: AppContext): void {
  app.get('/v2/share/:fileItemId', { config: { access: 'public' }, schema }, async (request, reply) => {
    const id = request.params.fileItemId;
    const trail = (outcome: RedemptionOutcome, workspaceId: string | null, exp: number | undefined) =>
      repos(ctx.db).shareTrail.recordRedemption({
        at: ctx.now(),
        targetId: id,
        workspaceId,
        outcome,
        tokenExpiresAt: exp === undefined ? null : exp * 1000,
        remoteAddr: request.ip,
        userAgent: request.headers['user-agent'] ?? null,
      });

    const verdict = verifyShare(ctx.shareSecret, id, request.query.token, ctx.now());
    if (!verdict.ok) {
      await trail(verdict.reason === 'expired' ? 'expired_token' : 'invalid_token', null, verdict.expSeconds);
      throw new AppError('unauthorized', 'Share link is not valid or has expired.', { plain: true });
    }
    const target = await locate(ctx, id);
    let stream: NodeJS.ReadableStream | null = null;
    if (target) {
      try {
        stream = await ctx.blobs.getStream(target.key);
      } catch (err) {
        if (!(err instanceof BlobNotFoundError)) throw err;
      }
    }
    if (!target || !stream) {
      await trail('not_found', target?.workspaceId ?? null, verdict.expSeconds);
      throw errors.notFound('Page');
    }
    await trail('served', target.workspaceId, verdict.expSeconds);
    const remaining = Math.max(0, verdict.expSeconds - Math.floor(ctx.now() / 1000));
    return reply
      .header('content-type', target.type)
      .header('content-disposition', 'inline')
      .header('x-content-type-options', 'nosniff')
      .header('cache-control', `private, max-age=${remaining}, immutable`)
      .header('content-length', target.size)
      .send(stream);
  });
}
