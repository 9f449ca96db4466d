-- Files (uploaded documents), their pages, ingest jobs, the work queue and the share trail.

CREATE TABLE files (
  id text PRIMARY KEY,
  workspace_id text NOT NULL REFERENCES workspaces(id),
  type text NOT NULL CHECK (type IN ('doc', 'image', 'audio', 'video')),
  file_name text NOT NULL,
  file_ext text NOT NULL,
  mime_type text NOT NULL,
  file_size bigint NOT NULL DEFAULT 0,
  sha256 text,
  source_url text,
  item_count integer NOT NULL DEFAULT 0,
  -- processing until the ingest job ends; runs skip files that are not ready.
  state text NOT NULL DEFAULT 'processing' CHECK (state IN ('processing', 'ready', 'failed')),
  expires_at bigint,
  deleted_at bigint,
  created_at bigint NOT NULL,
  updated_at bigint
);
CREATE INDEX files_workspace_idx ON files (workspace_id, created_at);

-- One row per page: its text, its words with boxes (0-1 fractions) and the full-text index.
CREATE TABLE file_pages (
  file_id text NOT NULL REFERENCES files(id) ON DELETE CASCADE,
  page integer NOT NULL,
  width real NOT NULL,
  height real NOT NULL,
  text text NOT NULL,
  words jsonb NOT NULL,
  ocr boolean NOT NULL DEFAULT false,
  tsv tsvector NOT NULL,
  created_at bigint NOT NULL,
  PRIMARY KEY (file_id, page)
);
CREATE INDEX file_pages_tsv_idx ON file_pages USING gin (tsv);

CREATE TABLE file_items (
  id text PRIMARY KEY,
  file_id text NOT NULL REFERENCES files(id) ON DELETE CASCADE,
  row text NOT NULL CHECK (row IN ('pdf', 'jpg', 'embedding_image')),
  col integer NOT NULL,
  blob_key text NOT NULL,
  mime_type text NOT NULL,
  byte_size bigint NOT NULL,
  created_at bigint NOT NULL,
  UNIQUE (file_id, row, col)
);

CREATE TABLE jobs (
  id text PRIMARY KEY,
  workspace_id text NOT NULL REFERENCES workspaces(id),
  file_id text NOT NULL,
  type text NOT NULL CHECK (type IN ('extract', 'vectorize')),
  api_version text NOT NULL CHECK (api_version IN ('v1', 'v2')),
  status text NOT NULL CHECK (status IN ('NOT_STARTED', 'IN_QUEUE', 'IN_PROGRESS', 'SUCCESS', 'ERROR')),
  status_text text,
  pages_done integer NOT NULL DEFAULT 0,
  started_at bigint,
  finished_at bigint,
  canceled_at bigint,
  created_at bigint NOT NULL,
  updated_at bigint NOT NULL
);
CREATE INDEX jobs_workspace_idx ON jobs (workspace_id, created_at);
CREATE INDEX jobs_file_idx ON jobs (file_id);

-- The work queue shared by every worker process: a task is claimed with FOR UPDATE SKIP
-- LOCKED and held by a lease; a task whose lease ran out is claimed again.
CREATE TABLE tasks (
  id text PRIMARY KEY,
  kind text NOT NULL,
  ref_id text NOT NULL,
  run_after bigint NOT NULL,
  attempts integer NOT NULL DEFAULT 0,
  locked_by text,
  lease_until bigint,
  last_error text,
  created_at bigint NOT NULL
);
CREATE INDEX tasks_ready_idx ON tasks (run_after);

-- Security trail of share-link redemptions; the token itself is never stored.
CREATE TABLE share_redemptions (
  id text PRIMARY KEY,
  target_id text NOT NULL,
  workspace_id text,
  outcome text NOT NULL,
  token_expires_at bigint,
  remote_addr text,
  user_agent text,
  created_at bigint NOT NULL
);
CREATE INDEX share_redemptions_target_idx ON share_redemptions (target_id, created_at);
