import type { AppContext } from '../../context.ts';

/** What the steps that store, assemble or delete parts need. */
export const sessionDeps = (ctx: AppContext) => ({
  db: ctx.db,
  blobs: ctx.blobs,
  idleMs: ctx.config.uploadSessionIdleMs,
  dataDir: ctx.config.dataDir,
  clock: ctx.now,
});
