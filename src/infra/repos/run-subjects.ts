import type { Queryable } from '../db/database.ts';

/**
 * A file can be read by a run once its ingest ended with pages, and until it is deleted or
 * expired (decisions.md D8). `$NOW` is replaced by the parameter holding the current time.
 */
const USABLE_FILE = `f.deleted_at IS NULL AND (f.expires_at IS NULL OR f.expires_at > $NOW)
  AND f.state <> 'processing' AND f.item_count > 0`;
const WAITING_FILE = `f.deleted_at IS NULL AND (f.expires_at IS NULL OR f.expires_at > $NOW) AND f.state = 'processing'`;
const at = (sql: string, p: number) => sql.replaceAll('$NOW', `$${p}`);

/** A row of a table with what a run needs to know about its subject. */
export interface SubjectRow {
  id: string;
  subject_type: 'file' | 'bundle';
  subject_id: string;
  archived_at: number | null;
  /** Documents a run would read (usable files; 1 or 0 for a file row). */
  usable: number;
  /** Documents still being ingested. */
  waiting: number;
  /** The bundle's documentsVersion (1 for a file row); null when the bundle is archived or gone. */
  documents_version: number | null;
}

export async function listSubjectRows(q: Queryable, tableId: string, now: number): Promise<SubjectRow[]> {
  return q.query<SubjectRow>(
    `SELECT r.id, r.subject_type, r.subject_id, r.archived_at,
            CASE WHEN r.subject_type = 'file'
                 THEN (SELECT count(*) FROM files f WHERE f.id = r.subject_id AND ${at(USABLE_FILE, 2)})
                 ELSE (SELECT count(*) FROM bundle_members m JOIN files f ON f.id = m.file_id
                        WHERE m.bundle_id = r.subject_id AND ${at(USABLE_FILE, 2)}) END::int AS usable,
            CASE WHEN r.subject_type = 'file'
                 THEN (SELECT count(*) FROM files f WHERE f.id = r.subject_id AND ${at(WAITING_FILE, 2)})
                 ELSE (SELECT count(*) FROM bundle_members m JOIN files f ON f.id = m.file_id
                        WHERE m.bundle_id = r.subject_id AND ${at(WAITING_FILE, 2)}) END::int AS waiting,
            CASE WHEN r.subject_type = 'file' THEN 1
                 ELSE (SELECT b.documents_version FROM bundles b WHERE b.id = r.subject_id AND b.archived_at IS NULL) END
              AS documents_version
       FROM table_rows r
      WHERE r.table_id = $1
      ORDER BY r.sort_order, r.id`,
    [tableId, now],
  );
}

/** One document of a subject as the engine sees it (without its pages). */
export interface SubjectDocument {
  subject_id: string;
  file_id: string;
  file_name: string;
  is_primary: boolean;
  role: string | null;
  effective_at: number | null;
  sort_order: number;
}

/**
 * The usable documents of each subject: a file row is its own single primary document; a
 * bundle row is its members that are usable now.
 */
export async function listSubjectDocuments(
  q: Queryable,
  fileIds: readonly string[],
  bundleIds: readonly string[],
  now: number,
): Promise<SubjectDocument[]> {
  return q.query<SubjectDocument>(
    `SELECT f.id AS subject_id, f.id AS file_id, f.file_name, true AS is_primary, NULL::text AS role,
            NULL::bigint AS effective_at, 0 AS sort_order
       FROM files f WHERE f.id = ANY($1::text[]) AND ${at(USABLE_FILE, 3)}
     UNION ALL
     SELECT m.bundle_id, f.id, f.file_name, m.is_primary, m.role, m.effective_at, m.sort_order
       FROM bundle_members m JOIN files f ON f.id = m.file_id
      WHERE m.bundle_id = ANY($2::text[]) AND ${at(USABLE_FILE, 3)}
      ORDER BY 1, 7, 2`,
    [fileIds, bundleIds, now],
  );
}
