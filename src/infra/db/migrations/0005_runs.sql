-- Runs, the cell queue (cells carry their own claim and lease) and credit holds.

CREATE TABLE runs (
  id text PRIMARY KEY,
  table_id text NOT NULL REFERENCES extraction_tables(id),
  workspace_id text NOT NULL REFERENCES workspaces(id),
  status text NOT NULL CHECK (status IN ('NOT_STARTED', 'IN_QUEUE', 'IN_PROGRESS', 'SUCCESS', 'ERROR', 'CANCELED')),
  triggered_by text NOT NULL,
  total_cells integer NOT NULL,
  started_at bigint,
  finished_at bigint,
  created_at bigint NOT NULL,
  updated_at bigint NOT NULL
);
CREATE INDEX runs_table_idx ON runs (table_id, created_at);
CREATE INDEX runs_active_idx ON runs (table_id) WHERE status IN ('NOT_STARTED', 'IN_QUEUE', 'IN_PROGRESS');

-- A queued cell is claimed by a worker (claim_id) under a lease; a cell whose lease ran out
-- while IN_PROGRESS belonged to a dead worker and is claimed again.
ALTER TABLE cells ADD COLUMN queue_pos bigint;
ALTER TABLE cells ADD COLUMN claim_id text;
ALTER TABLE cells ADD COLUMN lease_until bigint;
ALTER TABLE cells ADD COLUMN attempts integer NOT NULL DEFAULT 0;
ALTER TABLE cells ADD COLUMN hold_id text;
CREATE INDEX cells_queue_idx ON cells (queue_pos) WHERE status IN ('IN_QUEUE', 'IN_PROGRESS');
CREATE INDEX cells_run_idx ON cells (run_id);

-- The price of a cell, held from the balance when a worker starts it, then captured (charged)
-- on SUCCESS or released on ERROR, cancel or takeover. Each step is a ledger row.
CREATE TABLE credit_holds (
  id text PRIMARY KEY,
  workspace_id text NOT NULL REFERENCES workspaces(id),
  cell_id text NOT NULL,
  run_id text NOT NULL,
  amount bigint NOT NULL CHECK (amount > 0),
  state text NOT NULL CHECK (state IN ('held', 'captured', 'released')),
  created_at bigint NOT NULL,
  settled_at bigint
);
CREATE INDEX credit_holds_active_idx ON credit_holds (workspace_id) WHERE state = 'held';
CREATE INDEX credit_holds_cell_idx ON credit_holds (cell_id);
