/**
 * The page pool's shared table (page-pool.ts): per task slot, the id of the thread that
 * took it, 0 before, or this when the task was aborted before any thread took it.
 */
export const CANCELLED = -1;
