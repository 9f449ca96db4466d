-- Page words are written once per page and only ever read whole (the answer engine), never
-- queried inside: json keeps the text as sent, where jsonb parsed and rebuilt every page's
-- ~12 KB of words on insert (about half a millisecond of the embedded database's time per
-- page, on the thread that also serves HTTP) and serialised them again on every read.
ALTER TABLE file_pages ALTER COLUMN words TYPE json USING words::json;
