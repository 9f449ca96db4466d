import type { Database } from '../infra/db/database.ts';
import { repos, snapshot } from '../infra/repos/index.ts';
import { errors } from './errors.ts';
import { LineSpool } from './table-export-spool.ts';
import { getTable, type Table } from './tables.ts';

/**
 * Table export (issue 16): one row per live table row, one column per live column, the
 * value a person sees in each cell. This file reads the table; table-export-formats.ts
 * writes CSV, XLSX and JSON from what it reads.
 */

export const EXPORT_FORMATS = ['csv', 'xlsx', 'json'] as const;
export type ExportFormat = (typeof EXPORT_FORMATS)[number];

/** Per-column extras `include` may ask for, in the order their columns appear. */
export const EXPORT_EXTRAS = ['confidence', 'citations', 'status'] as const;
export type ExportExtra = (typeof EXPORT_EXTRAS)[number];

/** Cells read per database round trip: rows per page = this / live columns (at most 500 rows). */
const CELLS_PER_PAGE = 5_000;
const MAX_ROWS_PER_PAGE = 500;

export interface ExportColumn {
  id: string;
  name: string;
  outputType: string;
}

export interface ExportCitation {
  fileId: string;
  page: number;
  quote: string;
  box?: unknown;
}

/** One cell as exported: what the grid shows, with the answer's own confidence and citations. */
export interface ExportCell {
  /** The 2.4 status; NOT_STARTED where no cell exists yet. */
  status: string;
  /** True when `value` is the human override. */
  overridden: boolean;
  /** `{type, value}`, an array of regions (image columns), or null. */
  value: unknown;
  /** The extracted answer's confidence: null unless SUCCESS (D3). */
  confidence: number | null;
  /** The extracted answer's citations: empty unless SUCCESS (D3). */
  citations: ExportCitation[];
}

export interface ExportRow {
  rowId: string;
  /** The file's name or the bundle's. */
  document: string;
  /** One per live column, in column order. */
  cells: ExportCell[];
}

/** A table read in one snapshot and held in a spool file until written out. */
export interface TableExport {
  table: Table;
  columns: ExportColumn[];
  rowCount: number;
  /** The rows in table order; read once. */
  rows(): AsyncGenerator<ExportRow>;
  /** Releases the spool; safe to call more than once. */
  close(): Promise<void>;
}

const NO_CELL: ExportCell = {
  status: 'NOT_STARTED',
  overridden: false,
  value: null,
  confidence: null,
  citations: [],
};

/**
 * The rule of the export, as GET table's cells read (2.4, 4.4, D3): the human override wins
 * over the extracted value; a cell that is not SUCCESS has no extracted value, confidence
 * or citations. Confidence and citations stay those of the extracted answer: they describe
 * how it was found, and `status` says when a person's value is shown instead.
 */
export function exportCell(c: {
  status: string;
  value: unknown;
  citations: unknown;
  confidence: number | null;
  human_override: unknown;
}): ExportCell {
  const ok = c.status === 'SUCCESS';
  const override = c.human_override ?? null;
  return {
    status: c.status,
    overridden: override !== null,
    value: override ?? (ok ? (c.value ?? null) : null),
    confidence: ok && typeof c.confidence === 'number' && Number.isFinite(c.confidence) ? c.confidence : null,
    citations: ok && Array.isArray(c.citations) ? (c.citations as ExportCitation[]) : [],
  };
}

/** A spool line as the database writes it (cells.pageExportRowLines): `[rowId, name, cells]`. */
type StoredCell = [number, string, unknown, unknown, number | null, unknown];
type StoredRow = [string, string, StoredCell[]];

/**
 * Reads the table (404 when absent) in one REPEATABLE READ snapshot, a page of rows at a
 * time, into a spool file under `spoolDir`: the database writes each row as a line of JSON
 * text, copied to the file unparsed. The transaction ends before a byte is sent, so a slow
 * download never holds a database connection (or, embedded, the database itself), and memory
 * holds one page at a time whatever the table's size. The rules of 2.4 and D3 are applied as
 * the rows are read back.
 */
export async function readTableExport(
  db: Database,
  workspaceId: string,
  tableId: string,
  spoolDir: string,
  include: readonly ExportExtra[] = EXPORT_EXTRAS,
): Promise<TableExport> {
  // Citations are most of a cell's bytes: read only when a column of them is asked for.
  const want = { citations: include.includes('citations'), confidence: include.includes('confidence') };
  const spool = await LineSpool.create(spoolDir, 'export');
  try {
    const head = await snapshot(db, async (tx) => {
      const table = await getTable(tx, workspaceId, tableId);
      const columns: ExportColumn[] = (await repos(tx).columns.listColumns(tableId))
        .filter((c) => c.archived_at === null)
        .map((c) => ({ id: c.id, name: c.name, outputType: c.output_type }));
      const columnIds = columns.map((c) => c.id);
      const pageSize = Math.max(
        1,
        Math.min(MAX_ROWS_PER_PAGE, Math.floor(CELLS_PER_PAGE / Math.max(1, columns.length))),
      );
      let rowCount = 0;
      let after: { sortOrder: number; createdAt: number; id: string } | null = null;
      for (;;) {
        const page = await repos(tx).cells.pageExportRowLines(tableId, columnIds, after, pageSize, want);
        if (page.length === 0) break;
        await spool.append(page.map((r) => r.line));
        rowCount += page.length;
        if (page.length < pageSize) break;
        const last = page[page.length - 1]!;
        after = { sortOrder: last.sort_order, createdAt: last.created_at, id: last.id };
      }
      return { table, columns, rowCount };
    });
    const width = head.columns.length;
    return {
      ...head,
      async *rows() {
        for await (const line of spool.lines()) {
          const [rowId, document, stored] = JSON.parse(line) as StoredRow;
          const cells = new Array<ExportCell>(width).fill(NO_CELL);
          for (const [i, status, value, citations, confidence, human_override] of stored) {
            cells[i] = exportCell({ status, value, citations, confidence, human_override });
          }
          yield { rowId, document, cells };
        }
      },
      close: () => spool.close(),
    };
  } catch (err) {
    await spool.close();
    throw err;
  }
}

/** `include=confidence,citations,status` read leniently (spaces, case, repeats), refused when unknown. */
export function parseExportInclude(raw: string | undefined): ExportExtra[] {
  if (raw === undefined) return [];
  const asked = raw
    .split(',')
    .map((s) => s.trim().toLowerCase())
    .filter((s) => s.length > 0);
  const unknown = asked.filter((s) => !(EXPORT_EXTRAS as readonly string[]).includes(s));
  if (unknown.length > 0) {
    throw errors.badRequest(
      `querystring.include must be a comma-separated list of ${EXPORT_EXTRAS.join(', ')}; ` +
        `not ${unknown.map((s) => JSON.stringify(s.slice(0, 40))).join(', ')}.`,
    );
  }
  return EXPORT_EXTRAS.filter((e) => asked.includes(e));
}

/** Characters no file name should carry (paths, quotes, controls, what Windows refuses). */
// biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what is removed
const UNSAFE_IN_NAME = /[\u0000-\u001f\u007f"*/:<>?\\|]+/g;

/**
 * The download's file name from the table name: unsafe characters become `_`, blanks
 * collapse, at most 100 characters; `ascii` is the plain fallback of Content-Disposition's
 * `filename`, `utf8` its `filename*`.
 */
export function exportFileName(tableName: string, format: ExportFormat): { ascii: string; utf8: string } {
  const base =
    [...tableName.replace(UNSAFE_IN_NAME, '_').replace(/\s+/g, ' ').trim().replace(/^\.+/, '')]
      .slice(0, 100)
      .join('')
      .trim() || 'table';
  const ascii = base.replace(/[^\x20-\x7e]/g, '_');
  return { ascii: `${ascii}.${format}`, utf8: `${base}.${format}` };
}
