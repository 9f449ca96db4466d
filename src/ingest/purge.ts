import { PURGE_TASK } from '../domain/files.ts';
import type { BlobStore } from '../infra/blob/store.ts';
import type { Database } from '../infra/db/database.ts';
import { enqueue } from '../infra/queue.ts';
import { findFileById, hardDeleteFile, listExpiredFileIds, markFileDeleted } from '../infra/repos/files.ts';
import type { TaskHandler } from '../infra/worker-runner.ts';
import { fileFolder } from './keys.ts';

/**
 * Removes a deleted or expired file for good: bytes first, then the rows (pages, items and
 * text go with the file). The row is re-checked so a purge never touches a live file.
 */
export function purgeHandler(deps: { db: Database; blobs: BlobStore }): TaskHandler {
  return {
    maxAttempts: 10,
    async run(fileId) {
      const file = await findFileById(deps.db, fileId);
      if (!file) return;
      const gone = file.deleted_at !== null || (file.expires_at !== null && file.expires_at <= Date.now());
      if (!gone) return;
      await deps.blobs.deletePrefix(fileFolder(fileId));
      await hardDeleteFile(deps.db, fileId);
    },
  };
}

/** Marks expired files deleted and queues their purge; safe to run from many processes. */
export async function sweepExpired(db: Database, now = Date.now()): Promise<number> {
  let total = 0;
  for (;;) {
    const expired = await listExpiredFileIds(db, now, 500);
    if (expired.length === 0) return total;
    const marked = await db.transaction(async (tx) => {
      let n = 0;
      for (const id of expired) {
        if (!(await markFileDeleted(tx, id, now))) continue;
        await enqueue(tx, PURGE_TASK, id);
        n++;
      }
      return n;
    });
    total += marked;
    if (marked === 0) return total;
  }
}
