import type { AppContext } from '../context.ts';

/** The secret and origin a file or page view signs its share link with; every listing of files or pages needs it. */
export const signer = (ctx: AppContext) => ({ secret: ctx.shareSecret, baseUrl: ctx.config.publicUrl });
