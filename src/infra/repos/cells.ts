import type { Queryable } from '../db/database.ts';

export type CellStatus = 'NOT_STARTED' | 'IN_QUEUE' | 'IN_PROGRESS' | 'SUCCESS' | 'ERROR';

export interface CellRow {
  id: string;
  table_id: string;
  row_id: string;
  column_id: string;
  status: CellStatus;
  status_text: string | null;
  block_reason: string | null;
  value: unknown;
  citations: unknown[];
  confidence: number | null;
  human_override: unknown;
  column_version: number;
  bundle_version: number;
  run_id: string | null;
  created_at: number;
  updated_at: number;
}

export type CellWithStale = CellRow & { stale: boolean };

export async function insertCell(q: Queryable, c: CellRow): Promise<void> {
  await q.query(
    `INSERT INTO cells (id, table_id, row_id, column_id, status, status_text, block_reason, value, citations, confidence,
                        human_override, column_version, bundle_version, run_id, created_at, updated_at)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16)`,
    [
      c.id,
      c.table_id,
      c.row_id,
      c.column_id,
      c.status,
      c.status_text,
      c.block_reason,
      c.value === null || c.value === undefined ? null : JSON.stringify(c.value),
      JSON.stringify(c.citations ?? []),
      c.confidence,
      c.human_override === null || c.human_override === undefined ? null : JSON.stringify(c.human_override),
      c.column_version,
      c.bundle_version,
      c.run_id,
      c.created_at,
      c.updated_at,
    ],
  );
}

/**
 * Cells with `stale` worked out from both axes (3.2): behind its column's version, or behind
 * its bundle's documentsVersion.
 */
const WITH_STALE = `SELECT c.*,
            (c.column_version < col.version
              OR (r.subject_type = 'bundle' AND c.bundle_version < COALESCE(b.documents_version, c.bundle_version))) AS stale
       FROM cells c
       JOIN table_columns col ON col.id = c.column_id
       JOIN table_rows r ON r.id = c.row_id
       LEFT JOIN bundles b ON r.subject_type = 'bundle' AND b.id = r.subject_id`;

/** Every cell of a table, in row then column order, with `stale`. */
export async function listCellsWithStale(q: Queryable, tableId: string): Promise<CellWithStale[]> {
  return q.query<CellWithStale>(
    `${WITH_STALE} WHERE c.table_id = $1 ORDER BY r.sort_order, r.id, col.sort_order, col.id`,
    [tableId],
  );
}

/** One cell of a table with `stale`; null when absent. */
export async function findCellWithStale(
  q: Queryable,
  tableId: string,
  cellId: string,
): Promise<CellWithStale | null> {
  const rows = await q.query<CellWithStale>(`${WITH_STALE} WHERE c.table_id = $1 AND c.id = $2`, [
    tableId,
    cellId,
  ]);
  return rows[0] ?? null;
}

/**
 * One cell as the JSON text GET table serves, built by the database so that no per-cell
 * object is made in JS: the fields of `Cell` (domain/cells.ts) in its order, D3 applied (a
 * cell that is not SUCCESS shows value null, citations [] and confidence null) and `stale`
 * worked out as in listCellsWithStale. jsonb values come out as PostgreSQL prints them
 * (`{"a": 1}`): the same JSON values, other spacing. Needs `c` (cells), `col` (the table's
 * columns with `j`, the id as a JSON string) and `r` (the row with `j` and `dv`, the
 * documentsVersion of its bundle, null for a file row) in scope.
 */
const CELL_JSON = `'{"id":' || to_json(c.id)::text || ',"rowId":' || r.j || ',"columnId":' || col.j
  || ',"status":"' || c.status || '","statusText":' || COALESCE(to_json(c.status_text)::text, 'null')
  || ',"blockReason":' || COALESCE(to_json(c.block_reason)::text, 'null')
  || CASE WHEN c.status = 'SUCCESS' THEN
          ',"value":' || COALESCE(c.value::text, 'null')
       || ',"citations":' || COALESCE(NULLIF(c.citations, 'null'::jsonb)::text, '[]')
       || ',"confidence":' || CASE
            WHEN c.confidence IS NULL OR c.confidence IN ('NaN'::real, 'Infinity'::real, '-Infinity'::real) THEN 'null'
            WHEN c.confidence = 0 THEN '0'
            ELSE c.confidence::text END
     ELSE ',"value":null,"citations":[],"confidence":null' END
  || ',"humanOverride":' || COALESCE(c.human_override::text, 'null')
  || ',"columnVersion":' || c.column_version::text || ',"bundleVersion":' || c.bundle_version::text
  || CASE WHEN c.column_version < col.version OR c.bundle_version < r.dv THEN ',"stale":true' ELSE ',"stale":false' END
  || ',"createdAt":' || c.created_at::text || ',"updatedAt":' || c.updated_at::text || '}'`;

/** What every cell fragment of a table depends on besides its own row: the columns' ids, versions and order. */
export async function cellLayoutKey(q: Queryable, tableId: string): Promise<string> {
  const rows = await q.query<{ k: string }>(
    `SELECT md5(COALESCE(string_agg(id || ' ' || version || ' ' || sort_order, ',' ORDER BY id), '')) AS k
       FROM table_columns WHERE table_id = $1`,
    [tableId],
  );
  return rows[0].k;
}

/**
 * The rows that have cells, in the order GET table lists cells (listCellsWithStale), each
 * with a key that changes whenever its cells' JSON could: any write to one of its cells
 * (count and sum of xmin, as in tableFingerprint), to the row itself, or to its bundle's
 * documentsVersion. Together with cellLayoutKey it says which fragments can be kept.
 */
export async function listRowCellKeys(q: Queryable, tableId: string): Promise<{ id: string; k: string }[]> {
  return q.query<{ id: string; k: string }>(
    `SELECT s.row_id AS id, concat_ws(':', r.xmin::text, s.n, s.x, b.documents_version) AS k
       FROM (SELECT row_id, count(*) AS n, sum(xmin::text::bigint) AS x FROM cells WHERE table_id = $1 GROUP BY row_id) s
       JOIN table_rows r ON r.id = s.row_id
       LEFT JOIN bundles b ON r.subject_type = 'bundle' AND b.id = r.subject_id
      ORDER BY r.sort_order, r.id`,
    [tableId],
  );
}

/**
 * The cells of each of `rowIds` as JSON text: the cell objects in column order, comma-separated,
 * without brackets (null for a row without cells). Rows come back in no particular order. Must
 * run inside a transaction.
 */
export async function listRowCellsJson(
  q: Queryable,
  tableId: string,
  rowIds: readonly string[],
): Promise<{ id: string; j: string | null }[]> {
  // Tables are often never analyzed (PGlite has no autovacuum): without statistics the planner
  // probes the (row_id, column_id) index once per cell, where a hash join on the columns is
  // faster, and its inflated cost estimate turns on PostgreSQL's JIT, which costs more (~150 ms)
  // than it saves on this query. Bundles are looked up by key in a subquery, not joined, so
  // that no nested loop is needed anywhere else.
  await q.query('SET LOCAL enable_nestloop = off');
  await q.query('SET LOCAL jit = off');
  const rows = await q.query<{ id: string; j: string | null }>(
    `WITH col AS MATERIALIZED (
       SELECT id, version, sort_order, to_json(id)::text AS j FROM table_columns WHERE table_id = $1)
     SELECT r.id,
            (SELECT string_agg(${CELL_JSON}, ',' ORDER BY col.sort_order, col.id)
               FROM cells c JOIN col ON col.id = c.column_id
              WHERE c.row_id = r.id) AS j
       FROM (SELECT r.id, to_json(r.id)::text AS j,
                    CASE WHEN r.subject_type = 'bundle'
                         THEN (SELECT b.documents_version FROM bundles b WHERE b.id = r.subject_id) END AS dv
               FROM table_rows r
              WHERE r.table_id = $1 AND r.id = ANY($2::text[])) r`,
    [tableId, rowIds],
  );
  await q.query('RESET enable_nestloop');
  await q.query('RESET jit');
  return rows;
}

/** One page of a table export: a live row, where it sits (the keyset) and its line of JSON. */
export interface ExportRowLine {
  id: string;
  sort_order: number;
  created_at: number;
  /**
   * `[rowId, name, cells]`: name is the file's or the bundle's (the subject id when it is gone
   * from the store); each cell `[i, status, value, citations, confidence, humanOverride]` with
   * `i` the position of its column in `columnIds`, as stored (the export applies 2.4 and D3).
   */
  line: string;
}

/**
 * A page of a table's live (non-archived) rows in GET-table order (sort_order, created_at, id)
 * after the keyset `after` (null for the first page), each row's cells of `columnIds` written as
 * JSON text by the database, so that no cell value is parsed or copied into objects here.
 * Citations and confidence are left out (`[]`, `null`) unless `want` asks for them.
 */
export async function pageExportRowLines(
  q: Queryable,
  tableId: string,
  columnIds: readonly string[],
  after: { sortOrder: number; createdAt: number; id: string } | null,
  limit: number,
  want: { citations: boolean; confidence: boolean },
): Promise<ExportRowLine[]> {
  return q.query<ExportRowLine>(
    `WITH col AS MATERIALIZED (
       SELECT id, (ord - 1)::int AS i FROM unnest($2::text[]) WITH ORDINALITY AS t(id, ord))
     SELECT r.id, r.sort_order, r.created_at,
            '[' || to_json(r.id)::text || ',' || to_json(COALESCE(
              CASE WHEN r.subject_type = 'file'
                   THEN (SELECT f.file_name FROM files f WHERE f.id = r.subject_id)
                   ELSE (SELECT b.name FROM bundles b WHERE b.id = r.subject_id) END,
              r.subject_id))::text || ',['
            || COALESCE((
              SELECT string_agg('[' || col.i::text || ',' || to_json(c.status)::text
                  || ',' || COALESCE(c.value::text, 'null')
                  || ',' || CASE WHEN $7 THEN COALESCE(NULLIF(c.citations, 'null'::jsonb)::text, '[]') ELSE '[]' END
                  || ',' || CASE
                       WHEN NOT $8 OR c.confidence IS NULL OR c.confidence IN ('NaN'::real, 'Infinity'::real, '-Infinity'::real) THEN 'null'
                       WHEN c.confidence = 0 THEN '0'
                       ELSE c.confidence::text END
                  || ',' || COALESCE(c.human_override::text, 'null') || ']', ',')
                FROM cells c JOIN col ON col.id = c.column_id
               WHERE c.row_id = r.id), '') || ']]' AS line
       FROM table_rows r
      WHERE r.table_id = $1 AND r.archived_at IS NULL
        AND ($3::integer IS NULL OR (r.sort_order, r.created_at, r.id) > ($3::integer, $4::bigint, $5::text))
      ORDER BY r.sort_order, r.created_at, r.id
      LIMIT $6`,
    [
      tableId,
      columnIds,
      after?.sortOrder ?? null,
      after?.createdAt ?? null,
      after?.id ?? null,
      limit,
      want.citations,
      want.confidence,
    ],
  );
}
