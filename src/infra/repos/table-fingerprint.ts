import type { Queryable } from '../db/database.ts';

export interface TableFingerprint {
  /** Changes whenever anything GET table shows changes. */
  key: string;
  /** Changes whenever the table, its columns or its rows change: everything but the cells. */
  head: string;
  /** How many cells the table has in this state: the length of GET table's `cells` (and GET …/cells). */
  cellCount: number;
}

/**
 * Changes whenever anything GET table shows changes: every insert, update or delete of the
 * table, its columns, rows, cells or the bundles its rows point at writes a new tuple with a
 * new transaction id (xmin), which moves the count or the sum. Cheap next to reading the rows.
 */
export async function tableFingerprint(q: Queryable, tableId: string): Promise<TableFingerprint> {
  const rows = await q.query<{
    t: string | null;
    cols: string;
    rows: string;
    cells: string;
    bundles: string;
  }>(
    `SELECT (SELECT xmin::text FROM extraction_tables WHERE id = $1) AS t,
       (SELECT count(*) || ':' || COALESCE(sum(xmin::text::bigint), 0) FROM table_columns WHERE table_id = $1) AS cols,
       (SELECT count(*) || ':' || COALESCE(sum(xmin::text::bigint), 0) FROM table_rows WHERE table_id = $1) AS rows,
       (SELECT count(*) || ':' || COALESCE(sum(xmin::text::bigint), 0) FROM cells WHERE table_id = $1) AS cells,
       (SELECT COALESCE(sum(b.xmin::text::bigint), 0) FROM bundles b
          JOIN table_rows r ON r.subject_type = 'bundle' AND r.subject_id = b.id WHERE r.table_id = $1)::text AS bundles`,
    [tableId],
  );
  const { t, cols, rows: rws, cells, bundles } = rows[0];
  const head = [t, cols, rws].filter((p) => p !== null).join('|');
  return { key: `${head}|${cells}|${bundles}`, head, cellCount: Number(cells.slice(0, cells.indexOf(':'))) };
}
