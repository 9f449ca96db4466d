-- Idempotency-Key on POSTs that create or spend (issue 17 item 2). One row per API key and
-- key string: the request's fingerprint (method, route, params, body) and, once answered,
-- the response replayed to a repeat within 24 hours. An in-flight row whose lock ran out
-- (its process died) may be taken over.
CREATE TABLE idempotency_keys (
  api_key_id text NOT NULL,
  idem_key text NOT NULL,
  fingerprint text NOT NULL,
  state text NOT NULL CHECK (state IN ('in_flight', 'done')),
  locked_until bigint,
  status integer,
  content_type text,
  body text,
  created_at bigint NOT NULL,
  expires_at bigint NOT NULL,
  PRIMARY KEY (api_key_id, idem_key)
);
CREATE INDEX idempotency_keys_expiry_idx ON idempotency_keys (expires_at);
