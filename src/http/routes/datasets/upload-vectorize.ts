import type { App, AppContext } from '../../context.ts';
import { acceptV1Upload, uploadSchema } from './upload.ts';

const schema = uploadSchema('vectorize', 'Upload a document, extract its pages and make it searchable');

export function uploadVectorizeRoute(app: App, ctx: AppContext): void {
  app.post(
    '/v1/vectorize',
    { config: { access: 'read_write', idempotent: true }, schema },
    acceptV1Upload(ctx, 'vectorize'),
  );
}
