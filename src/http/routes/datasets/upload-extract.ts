import type { App, AppContext } from '../../context.ts';
import { acceptV1Upload, uploadSchema } from './upload.ts';

const schema = uploadSchema('extract', 'Upload a document and extract its pages');

export function uploadExtractRoute(app: App, ctx: AppContext): void {
  app.post(
    '/v1/extract',
    { config: { access: 'read_write', idempotent: true }, schema },
    acceptV1Upload(ctx, 'extract'),
  );
}
