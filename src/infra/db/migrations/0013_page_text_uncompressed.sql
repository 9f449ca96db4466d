-- A page's text and words are written once and read whole. Compressing them (pglz, ~12 KB of
-- words a page) cost the embedded database about 0.4 ms of the HTTP thread's time per
-- ingested page and a decompression on every read by the answer engine; stored out of line
-- without compression they take about 8 KB more per page than the page's own JPEG's ~200 KB.
ALTER TABLE file_pages ALTER COLUMN words SET STORAGE EXTERNAL, ALTER COLUMN text SET STORAGE EXTERNAL;
