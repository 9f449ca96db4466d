-- Fair queues (issue 15 item 2): start-time fair queuing for ingest tasks and table cells.
-- A workspace's new work is given queue positions after both its own last position and the
-- head of the queue (the lowest position still waiting), so workspaces that queue at the
-- same time interleave, a workspace's backlog stays behind its earlier work, and a small job
-- arriving behind another workspace's bulk waits for about one task or batch, not the bulk.

-- Tasks name the workspace they work for (NULL: housekeeping of the deployment), for the
-- per-workspace cap on running tasks.
ALTER TABLE tasks ADD COLUMN workspace_id text;
ALTER TABLE tasks ADD COLUMN queue_pos bigint;
CREATE INDEX tasks_workspace_idx ON tasks (workspace_id) WHERE workspace_id IS NOT NULL;

-- The last positions given to a workspace's cells and tasks. A table of its own, not columns
-- of workspaces: the cell runner locks workspace rows to hold credits, and queuing work must
-- not wait on (or be waited on by) those locks.
CREATE TABLE workspace_queue_tails (
  workspace_id text PRIMARY KEY,
  cell_tail bigint NOT NULL DEFAULT 0,
  task_tail bigint NOT NULL DEFAULT 0
);
