-- A task whose kind this code has no handler for is failed, not run and not retried: it keeps
-- its row, with failed_at set and last_error saying why (issue 14).
ALTER TABLE tasks ADD COLUMN failed_at bigint;
