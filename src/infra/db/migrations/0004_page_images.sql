-- Image objects (pictures, charts, logos, scanned signatures) found on each page, with their
-- boxes as 0-1 fractions of the displayed page: the regions image columns answer with.
ALTER TABLE file_pages ADD COLUMN images jsonb NOT NULL DEFAULT '[]';
