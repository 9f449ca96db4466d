-- Columns, rows, bundles and cells (with their event log and per-document facts).

CREATE TABLE table_columns (
  id text PRIMARY KEY,
  table_id text NOT NULL REFERENCES extraction_tables(id),
  name text NOT NULL,
  prompt text NOT NULL,
  output_type text NOT NULL,
  config text,
  is_compositional boolean NOT NULL DEFAULT false,
  credit_rate integer NOT NULL CHECK (credit_rate BETWEEN 4 AND 40),
  sort_order integer NOT NULL CHECK (sort_order >= 0),
  version integer NOT NULL DEFAULT 1,
  archived_at bigint,
  created_at bigint NOT NULL,
  updated_at bigint NOT NULL
);
CREATE INDEX table_columns_table_idx ON table_columns (table_id, sort_order);

CREATE TABLE bundles (
  id text PRIMARY KEY,
  workspace_id text NOT NULL REFERENCES workspaces(id),
  name text NOT NULL,
  color text,
  documents_version integer NOT NULL DEFAULT 1,
  archived_at bigint,
  created_at bigint NOT NULL,
  updated_at bigint NOT NULL
);
CREATE INDEX bundles_workspace_idx ON bundles (workspace_id, created_at);

CREATE TABLE bundle_members (
  bundle_id text NOT NULL REFERENCES bundles(id),
  file_id text NOT NULL,
  is_primary boolean NOT NULL DEFAULT false,
  role text,
  effective_at bigint,
  sort_order integer NOT NULL CHECK (sort_order >= 0),
  created_at bigint NOT NULL,
  updated_at bigint NOT NULL,
  PRIMARY KEY (bundle_id, file_id)
);
-- A bundle has at most one primary (anchor).
CREATE UNIQUE INDEX bundle_members_one_primary ON bundle_members (bundle_id) WHERE is_primary;

CREATE TABLE table_rows (
  id text PRIMARY KEY,
  table_id text NOT NULL REFERENCES extraction_tables(id),
  subject_type text NOT NULL CHECK (subject_type IN ('file', 'bundle')),
  subject_id text NOT NULL,
  sort_order integer NOT NULL CHECK (sort_order >= 0),
  archived_at bigint,
  created_at bigint NOT NULL,
  updated_at bigint NOT NULL,
  UNIQUE (table_id, subject_type, subject_id)
);

CREATE TABLE cells (
  id text PRIMARY KEY,
  table_id text NOT NULL REFERENCES extraction_tables(id),
  row_id text NOT NULL REFERENCES table_rows(id),
  column_id text NOT NULL REFERENCES table_columns(id),
  status text NOT NULL CHECK (status IN ('NOT_STARTED', 'IN_QUEUE', 'IN_PROGRESS', 'SUCCESS', 'ERROR')),
  status_text text,
  block_reason text,
  value jsonb,
  citations jsonb NOT NULL DEFAULT '[]',
  confidence real,
  human_override jsonb,
  column_version integer NOT NULL,
  bundle_version integer NOT NULL DEFAULT 1,
  run_id text,
  created_at bigint NOT NULL,
  updated_at bigint NOT NULL,
  UNIQUE (row_id, column_id)
);
CREATE INDEX cells_table_idx ON cells (table_id);

CREATE TABLE cell_events (
  id text PRIMARY KEY,
  cell_id text NOT NULL REFERENCES cells(id),
  type text NOT NULL,
  data text NOT NULL,
  actor_id text,
  created_at bigint NOT NULL
);
CREATE INDEX cell_events_cell_idx ON cell_events (cell_id, created_at);

CREATE TABLE cell_facts (
  id text PRIMARY KEY,
  cell_id text NOT NULL REFERENCES cells(id),
  file_id text NOT NULL,
  role text,
  effective_at bigint,
  sort_order integer NOT NULL DEFAULT 0,
  status text NOT NULL,
  value text,
  citations text NOT NULL DEFAULT '[]',
  confidence real,
  created_at bigint NOT NULL
);
CREATE INDEX cell_facts_cell_idx ON cell_facts (cell_id, sort_order);
