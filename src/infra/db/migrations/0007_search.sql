-- Search (interface.md 4.9, decisions.md D6): page vectors from an embeddings provider,
-- a perceptual hash per page thumbnail, and the metered search requests.

-- Embeddings as little-endian float32 bytes, unit length, so cosine is a dot product.
-- Neither database Folio ships with has pgvector (PGlite 0.5 no longer bundles it), so
-- vectors are scored exactly in the process; the rows go with their file (cascade).
CREATE TABLE page_vectors (
  file_id text NOT NULL REFERENCES files(id) ON DELETE CASCADE,
  page integer NOT NULL,
  kind text NOT NULL CHECK (kind IN ('text', 'image')),
  model text NOT NULL,
  dims integer NOT NULL,
  embedding bytea NOT NULL,
  created_at bigint NOT NULL,
  PRIMARY KEY (file_id, page, kind, model)
);

-- A 256-bit difference hash of each page's retrieval image, for image queries without an
-- image-capable provider; computed after ingest, or at search time for older pages.
CREATE TABLE page_hashes (
  file_id text NOT NULL REFERENCES files(id) ON DELETE CASCADE,
  page integer NOT NULL,
  dhash bit(256) NOT NULL,
  created_at bigint NOT NULL,
  PRIMARY KEY (file_id, page)
);

-- One row per charged search, written with its ledger row. An idempotency key names one
-- charge per workspace for 24 hours; a later request with the key takes the row over.
CREATE TABLE search_requests (
  id text PRIMARY KEY,
  workspace_id text NOT NULL REFERENCES workspaces(id),
  key_id text,
  idempotency_key text,
  request_hash text NOT NULL,
  price integer NOT NULL,
  result_count integer NOT NULL,
  created_at bigint NOT NULL
);
CREATE UNIQUE INDEX search_requests_idem_idx ON search_requests (workspace_id, idempotency_key);
CREATE INDEX search_requests_workspace_idx ON search_requests (workspace_id, created_at);

-- Document frequencies of page-text lexemes per workspace, for idf weights at search time
-- without reading every page. A file's pages are counted once (its marker row, written in
-- the same transaction); deleted files are not subtracted: the weights are estimates.
CREATE TABLE search_lexemes (
  workspace_id text NOT NULL REFERENCES workspaces(id),
  lexeme text NOT NULL,
  df integer NOT NULL,
  PRIMARY KEY (workspace_id, lexeme)
);
CREATE TABLE search_indexed_files (
  file_id text PRIMARY KEY REFERENCES files(id) ON DELETE CASCADE,
  workspace_id text NOT NULL,
  pages integer NOT NULL
);
CREATE INDEX search_indexed_files_workspace_idx ON search_indexed_files (workspace_id);
