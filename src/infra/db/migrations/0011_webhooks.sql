-- Signed webhooks (issue 17 item 1, Standard Webhooks conventions).
-- The signing secret is never stored: it is derived from the deployment's secret and the
-- endpoint's salt when a delivery is signed; only its hash is kept, to show which it is.
CREATE TABLE webhooks (
  id text PRIMARY KEY,
  workspace_id text NOT NULL REFERENCES workspaces (id) ON DELETE CASCADE,
  url text NOT NULL,
  events text[] NOT NULL,
  enabled boolean NOT NULL DEFAULT true,
  secret_salt text NOT NULL,
  secret_hash text NOT NULL,
  -- The first failed delivery of the current run of failures; NULL after a success.
  failing_since bigint,
  disabled_reason text,
  created_at bigint NOT NULL,
  updated_at bigint NOT NULL
);
CREATE INDEX webhooks_workspace_idx ON webhooks (workspace_id);

-- One message to one endpoint. Queued in the transaction of the event it tells of.
CREATE TABLE webhook_deliveries (
  id text PRIMARY KEY,
  webhook_id text NOT NULL REFERENCES webhooks (id) ON DELETE CASCADE,
  workspace_id text NOT NULL,
  event text NOT NULL,
  payload text NOT NULL,
  status text NOT NULL CHECK (status IN ('pending', 'succeeded', 'failed')),
  attempts integer NOT NULL DEFAULT 0,
  next_attempt_at bigint,
  created_at bigint NOT NULL,
  updated_at bigint NOT NULL
);
CREATE INDEX webhook_deliveries_webhook_idx ON webhook_deliveries (webhook_id, created_at DESC);

CREATE TABLE webhook_attempts (
  id text PRIMARY KEY,
  delivery_id text NOT NULL REFERENCES webhook_deliveries (id) ON DELETE CASCADE,
  attempted_at bigint NOT NULL,
  status_code integer,
  error text,
  latency_ms integer NOT NULL
);
CREATE INDEX webhook_attempts_delivery_idx ON webhook_attempts (delivery_id, attempted_at);
