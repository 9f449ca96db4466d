-- v1 upload sessions (interface.md 4.8): a file sent in parts, assembled at `end`.

-- The session key is a bearer secret: only its SHA-256 is kept, so a database dump cannot
-- be used to append to or end someone's session.
CREATE TABLE upload_sessions (
  id text PRIMARY KEY,
  workspace_id text NOT NULL REFERENCES workspaces(id),
  key_hash text NOT NULL UNIQUE,
  file_name text NOT NULL,
  file_ext text NOT NULL,
  file_type text NOT NULL,
  job_type text NOT NULL CHECK (job_type IN ('extract', 'vectorize')),
  -- As sent at start; the dataset's expiresAt is computed from it when the session ends.
  expiry_in_days double precision,
  -- open: taking parts; ending: being assembled by one request; the rest are final.
  state text NOT NULL CHECK (state IN ('open', 'ending', 'ended', 'aborted', 'expired')),
  file_id text,
  last_activity_at bigint NOT NULL,
  -- Set once the chunks are gone from storage; until then the sweep keeps retrying.
  chunks_deleted_at bigint,
  created_at bigint NOT NULL,
  updated_at bigint NOT NULL
);
CREATE INDEX upload_sessions_sweep_idx ON upload_sessions (last_activity_at) WHERE chunks_deleted_at IS NULL;

-- One row per stored part; re-sending a part number replaces the row (and its blob).
CREATE TABLE upload_session_parts (
  session_id text NOT NULL REFERENCES upload_sessions(id) ON DELETE CASCADE,
  part_number integer NOT NULL CHECK (part_number BETWEEN 1 AND 10000),
  etag text NOT NULL,
  byte_size bigint NOT NULL,
  blob_key text NOT NULL,
  created_at bigint NOT NULL,
  PRIMARY KEY (session_id, part_number)
);
