import type { Queryable } from '../db/database.ts';

/**
 * Changes whenever anything GET table shows changes: every insert, update or delete of the
 * table, its columns, rows, cells or the bundles its rows point at writes a new tuple with a
 * new transaction id (xmin), which moves the count or the sum. Cheap next to reading the rows.
 */
export async function tableFingerprint(q: Queryable, tableId: string): Promise<string> {
  const rows = await q.query<{ fp: string }>(
    `SELECT concat_ws('|',
       (SELECT xmin::text FROM extraction_tables WHERE id = $1),
       (SELECT count(*) || ':' || COALESCE(sum(xmin::text::bigint), 0) FROM table_columns WHERE table_id = $1),
       (SELECT count(*) || ':' || COALESCE(sum(xmin::text::bigint), 0) FROM table_rows WHERE table_id = $1),
       (SELECT count(*) || ':' || COALESCE(sum(xmin::text::bigint), 0) FROM cells WHERE table_id = $1),
       (SELECT COALESCE(sum(b.xmin::text::bigint), 0) FROM bundles b
          JOIN table_rows r ON r.subject_type = 'bundle' AND r.subject_id = b.id WHERE r.table_id = $1)) AS fp`,
    [tableId],
  );
  return rows[0].fp;
}
