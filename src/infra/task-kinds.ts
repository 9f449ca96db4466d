/**
 * Every kind of task the queue carries. `enqueue` and the worker's handler table are typed
 * with this union, so a misspelt kind or a kind without a handler is a compile error; the
 * worker also checks its table at start (`checkTaskHandlers` in worker-runner.ts), and a row
 * whose kind is not listed here is failed, not run (`failUnknownTasks` in queue.ts).
 */
export const TASK_KINDS = [
  /** An ingest job (domain/jobs.ts): parse a file into pages and items. */
  'ingest',
  /** A deleted or expired file (domain/files.ts): remove its bytes and rows for good. */
  'file.purge',
  /**
   * The housekeeping beat (one recurring row for the whole deployment): expired files (3.4,
   * D8) and idle upload sessions (4.8), so many workers never sweep at once.
   */
  'sweep',
  /** One attempt at a webhook delivery (domain/webhooks.ts); retries are new rows, run later. */
  'webhook.deliver',
] as const;

export type TaskKind = (typeof TASK_KINDS)[number];

export function isTaskKind(kind: string): kind is TaskKind {
  return (TASK_KINDS as readonly string[]).includes(kind);
}

/** The recurring housekeeping task (see 'sweep' above). */
export const SWEEP_TASK = 'sweep' satisfies TaskKind;
