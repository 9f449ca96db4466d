-- Workspaces, credits, API keys and instance settings.

CREATE TABLE workspaces (
  id text PRIMARY KEY,
  name text NOT NULL,
  tier text NOT NULL CHECK (tier IN ('starter', 'bronze', 'silver', 'gold')),
  balance bigint NOT NULL DEFAULT 0 CHECK (balance >= 0),
  spend_cap bigint CHECK (spend_cap IS NULL OR spend_cap >= 0),
  -- Spend of the calendar month (UTC) named by spend_month; another month reads as 0.
  month_spend bigint NOT NULL DEFAULT 0,
  spend_month text NOT NULL,
  created_at bigint NOT NULL,
  updated_at bigint NOT NULL
);

-- Every change of a balance is one row here, written in the transaction that caused it.
CREATE TABLE credit_ledger (
  id text PRIMARY KEY,
  workspace_id text NOT NULL REFERENCES workspaces(id),
  amount bigint NOT NULL,
  balance_after bigint NOT NULL CHECK (balance_after >= 0),
  reason text NOT NULL,
  ref_id text,
  actor_id text,
  created_at bigint NOT NULL
);
CREATE INDEX credit_ledger_workspace_idx ON credit_ledger (workspace_id, created_at);

CREATE TABLE api_keys (
  id text PRIMARY KEY,
  workspace_id text NOT NULL REFERENCES workspaces(id),
  level text NOT NULL CHECK (level IN ('read', 'read_write')),
  secret_hash bytea NOT NULL,
  last4 text NOT NULL,
  expires_at bigint,
  revoked_at bigint,
  last_used_at bigint,
  created_at bigint NOT NULL
);
CREATE INDEX api_keys_workspace_idx ON api_keys (workspace_id);

-- Instance-wide values every process must agree on (e.g. a generated share secret).
CREATE TABLE instance_settings (
  name text PRIMARY KEY,
  value text NOT NULL,
  created_at bigint NOT NULL
);

CREATE TABLE extraction_tables (
  id text PRIMARY KEY,
  workspace_id text NOT NULL REFERENCES workspaces(id),
  name text NOT NULL,
  standing boolean NOT NULL DEFAULT false,
  color text,
  locale text,
  archived_at bigint,
  created_at bigint NOT NULL,
  updated_at bigint NOT NULL
);
CREATE INDEX extraction_tables_workspace_idx ON extraction_tables (workspace_id, created_at);
