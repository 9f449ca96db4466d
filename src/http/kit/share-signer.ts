import type { Signer } from '../../domain/files.ts';
import type { AppContext } from '../context.ts';

/**
 * The secret and origin a file or page view signs its share link with, and the clock's time
 * the link's lifetime counts from; every listing of files or pages needs it.
 */
export const signer = (ctx: AppContext): Signer => ({
  secret: ctx.shareSecret,
  baseUrl: ctx.config.publicUrl,
  now: ctx.now(),
});
