import { sweepUploadSessions } from '../domain/upload-sessions.ts';
import type { BlobStore } from '../infra/blob/store.ts';
import type { Clock } from '../infra/clock.ts';
import type { Database } from '../infra/db/database.ts';
import { repos } from '../infra/repos/index.ts';
import type { TaskHandler } from '../infra/worker-runner.ts';
import { sweepExpired } from './purge.ts';

/**
 * The recurring `sweep` task: idle upload sessions lose their chunks (4.8), expired
 * files are queued for purging (3.4, D8), Idempotency-Key answers past 24 hours go, then the task comes back `everyMs` later. One row
 * serves every worker of the deployment, so two never sweep at once, and a failed beat
 * retries with backoff instead of being dropped.
 */
export function sweepHandler(deps: {
  db: Database;
  blobs: BlobStore;
  clock: Clock;
  uploadSessionIdleMs: number;
  everyMs: number;
  /** Purge tasks were queued: wake the task runner. */
  onPurgeQueued: () => void;
}): TaskHandler {
  return {
    maxAttempts: Number.POSITIVE_INFINITY,
    repeatAfterMs: deps.everyMs,
    async run(_ref, { log }) {
      const sessions = await sweepUploadSessions(deps, deps.uploadSessionIdleMs);
      const expired = await sweepExpired(deps.db, deps.clock());
      await repos(deps.db).idempotencyKeys.deleteExpiredIdempotencyKeys(deps.clock());
      if (expired > 0) deps.onPurgeQueued();
      if (expired > 0 || sessions > 0) log.info({ expired, sessions }, 'swept');
    },
  };
}
