import { errors } from '../../../domain/errors.ts';
import { clampLifetime, mintShare } from '../../../domain/share-tokens.ts';
import { repos } from '../../../infra/repos/index.ts';
import type { App, AppContext } from '../../context.ts';
import { ShareSchema } from '../../kit/file-schemas.ts';
import { keySecurity } from '../../kit/security.ts';
import { Body, Envelope, ok, Type } from '../../schema.ts';

const schema = {
  tags: ['share'],
  summary:
    'Mint a signed, time-limited link to one page (or, for a ds_ id, the original file); free, writes nothing',
  description: 'Spec: interface.md 4.7; decisions.md D9.',
  security: keySecurity,
  params: Type.Object({
    workspaceId: Type.String({ maxLength: 80 }),
    fileItemId: Type.String({ maxLength: 80 }),
  }),
  body: Body({
    expiresIn: Type.Optional(Type.Number({ description: 'seconds, clamped to 60-86,400; default 600' })),
  }),
  response: { 200: Envelope(ShareSchema) },
};

export function mintShareRoute(app: App, ctx: AppContext): void {
  app.post(
    '/v2/workspaces/:workspaceId/share/:fileItemId',
    {
      config: { access: 'read' },
      schema,
      // The body is optional: no body means the default lifetime.
      preValidation: async (request) => {
        request.body ??= {};
      },
    },
    async (request) => {
      const { workspaceId, fileItemId } = request.params;
      const fileId = fileItemId.startsWith('dsx_')
        ? (await repos(ctx.db).items.findItemById(fileItemId))?.file_id
        : fileItemId;
      if (!fileId || !(await repos(ctx.db).files.findReadableFile(workspaceId, fileId, ctx.now())))
        throw errors.notFound('File item');
      return ok(
        mintShare(
          ctx.shareSecret,
          ctx.config.publicUrl,
          fileItemId,
          clampLifetime(request.body.expiresIn),
          ctx.now(),
        ),
      );
    },
  );
}
