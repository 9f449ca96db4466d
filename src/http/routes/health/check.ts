import { statfs } from 'node:fs/promises';
import { repos } from '../../../infra/repos/index.ts';
import type { App, AppContext } from '../../context.ts';
import { Envelope, ok, Type } from '../../schema.ts';

const schema = {
  tags: ['health'],
  summary: 'Liveness, database reachability and free disk space; no key needed',
  description:
    'Answers 200 whenever the service accepts requests: `status` is `degraded`, with `reason`, when ' +
    'less than DISK_FREE_MIN_MB is free on the disk holding DATA_DIR (reads still work; uploads and ' +
    'ingest may fail with 507 until space frees). Spec: decisions.md D10.',
  response: {
    200: Envelope(
      Type.Object({
        status: Type.Union([Type.Literal('ok'), Type.Literal('degraded')]),
        database: Type.String(),
        reason: Type.Optional(Type.String({ description: 'Why the service is degraded; absent when ok.' })),
      }),
    ),
  },
};

const MB = 1024 * 1024;

/**
 * Degraded is still a 200 (D10: tools wait for a 200, and a load balancer should keep sending
 * reads to a process whose disk is full): the body says what is wrong for monitoring to alert on.
 */
export function healthCheckRoute(app: App, ctx: AppContext): void {
  app.get('/healthz', { config: { access: 'public', rateLimit: false }, schema }, async () => {
    await repos(ctx.db).health.ping();
    const reason = await diskReason(ctx.config.dataDir, ctx.config.diskFreeMinBytes);
    return ok(
      reason === null
        ? { status: 'ok' as const, database: ctx.db.kind }
        : { status: 'degraded' as const, database: ctx.db.kind, reason },
    );
  });
}

/** Why the data disk is a problem, or null; the reason names no path (the body is public). */
async function diskReason(dataDir: string, minBytes: number): Promise<string | null> {
  if (minBytes <= 0) return null;
  let free: number;
  try {
    const s = await statfs(dataDir);
    free = s.bavail * s.bsize;
  } catch {
    return 'the free space of the data directory cannot be read';
  }
  if (free >= minBytes) return null;
  return `low disk space: ${Math.floor(free / MB)} MB free in the data directory, below the ${Math.round(minBytes / MB)} MB minimum (DISK_FREE_MIN_MB)`;
}
