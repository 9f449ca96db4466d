import { PURGE_TASK } from '../domain/files.ts';
import type { BlobStore } from '../infra/blob/store.ts';
import type { Clock } from '../infra/clock.ts';
import type { Database } from '../infra/db/database.ts';
import { enqueue } from '../infra/queue.ts';
import { repos } from '../infra/repos/index.ts';
import type { TaskHandler } from '../infra/worker-runner.ts';
import { fileFolder } from './keys.ts';

/**
 * Removes a deleted or expired file for good: bytes first, then the rows (pages, items and
 * text go with the file). The row is re-checked so a purge never touches a live file.
 */
export function purgeHandler(deps: { db: Database; blobs: BlobStore; clock: Clock }): TaskHandler {
  return {
    maxAttempts: 10,
    async run(fileId) {
      const file = await repos(deps.db).files.findFileById(fileId);
      if (!file) return;
      const gone = file.deleted_at !== null || (file.expires_at !== null && file.expires_at <= deps.clock());
      if (!gone) return;
      await deps.blobs.deletePrefix(fileFolder(fileId));
      await repos(deps.db).files.hardDeleteFile(fileId);
    },
  };
}

/**
 * Marks expired files deleted (as of `now`, the clock's time) and queues their purge, `batch`
 * files per transaction, so a large backlog never holds one long transaction. Safe to run
 * from many processes at once: each file is claimed by exactly one sweep (rows locked by
 * another are skipped).
 */
export async function sweepExpired(db: Database, now: number, batch = 500): Promise<number> {
  let total = 0;
  for (;;) {
    const claimed = await db.transaction(async (tx) => {
      const ids = await repos(tx).files.claimExpiredFiles(now, batch);
      for (const id of ids) await enqueue(tx, PURGE_TASK, id, now);
      return ids.length;
    });
    total += claimed;
    // Not `claimed < batch`: a batch comes back short when another sweep holds rows locked,
    // or when its rows were claimed between snapshot and lock, while more remain.
    if (claimed === 0) return total;
  }
}
