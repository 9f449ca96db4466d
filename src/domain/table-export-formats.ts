import type { Writable } from 'node:stream';
import { setTimeout as sleep } from 'node:timers/promises';
import ExcelJS from 'exceljs';
import { isCalendarDate } from './overrides.ts';
import type {
  ExportCell,
  ExportCitation,
  ExportColumn,
  ExportExtra,
  ExportRow,
  TableExport,
} from './table-export.ts';

/**
 * The three export formats (issue 16), written from a TableExport row by row, so memory holds
 * a row and a small output buffer, never the file:
 * - CSV: RFC 4180 (CRLF line ends, a field holding a comma, quote, CR or LF is quoted, quotes
 *   doubled), UTF-8, optionally preceded by a BOM so Excel reads it as UTF-8;
 * - XLSX: one worksheet through exceljs's streaming writer; numbers are numbers, dates real
 *   Excel dates (yyyy-mm-dd), yes/no real booleans;
 * - JSON: an array of row objects keyed by the same headers, values in their JSON types.
 */

export interface ExportOptions {
  include: readonly ExportExtra[];
  /** CSV only: start with a UTF-8 byte order mark. */
  bom?: boolean;
}

type Field =
  | { kind: 'document' }
  | { kind: 'rowId' }
  | { kind: 'value'; col: number; column: ExportColumn }
  | { kind: ExportExtra; col: number; column: ExportColumn };

export interface ExportLayout {
  fields: Field[];
  headers: string[];
}

/** First the row's document name and id, then per live column its value and the extras asked for. */
export function exportLayout(
  columns: readonly ExportColumn[],
  include: readonly ExportExtra[],
): ExportLayout {
  const fields: Field[] = [{ kind: 'document' }, { kind: 'rowId' }];
  const names = ['Document', 'Row id'];
  columns.forEach((column, col) => {
    fields.push({ kind: 'value', col, column });
    names.push(column.name);
    for (const extra of include) {
      fields.push({ kind: extra, col, column });
      names.push(`${column.name} ${extra}`);
    }
  });
  // Two columns may share a name (or take "Document"): later ones get " (2)", " (3)", ... so
  // every header, and every JSON key, is distinct.
  const seen = new Set<string>();
  const headers = names.map((name) => {
    let h = name;
    for (let n = 2; seen.has(h); n++) h = `${name} (${n})`;
    seen.add(h);
    return h;
  });
  return { fields, headers };
}

/** A value as a spreadsheet holds it; null is an empty cell. */
export type Scalar =
  | { t: 'text'; v: string }
  | { t: 'number'; v: number }
  | { t: 'date'; v: string }
  | { t: 'boolean'; v: boolean }
  | null;

interface RegionLike {
  page?: unknown;
  caption?: unknown;
}

function isTyped(v: unknown): v is { type: unknown; value: unknown } {
  return typeof v === 'object' && v !== null && !Array.isArray(v) && 'value' in v;
}

/** `p.2: "quote"; p.3: "..."`: where each citation is and what it quotes. */
export function citationsText(citations: readonly ExportCitation[]): string {
  return citations.map((c) => `p.${c.page}: "${c.quote}"`).join('; ');
}

function regionsText(regions: readonly RegionLike[]): string {
  return regions
    .map((r) => (typeof r.caption === 'string' && r.caption ? `p.${r.page}: "${r.caption}"` : `p.${r.page}`))
    .join('; ');
}

/**
 * The shown value as a spreadsheet value, by the value's own type (an image column's
 * override is text): number and date stay typed, a list is its items joined by "; ", a
 * picture names its pages and captions.
 */
export function scalarOf(value: unknown): Scalar {
  if (value === null || value === undefined) return null;
  if (Array.isArray(value)) return value.length === 0 ? null : { t: 'text', v: regionsText(value) };
  if (!isTyped(value)) return { t: 'text', v: JSON.stringify(value) };
  const v = value.value;
  if (v === null || v === undefined) return null;
  switch (value.type) {
    case 'number':
      if (typeof v === 'number' && Number.isFinite(v)) return { t: 'number', v };
      break;
    case 'date':
      if (typeof v === 'string' && isCalendarDate(v)) return { t: 'date', v };
      break;
    case 'boolean':
      if (typeof v === 'boolean') return { t: 'boolean', v };
      break;
  }
  if (typeof v === 'string') return { t: 'text', v };
  if (Array.isArray(v))
    return { t: 'text', v: v.map((x) => (typeof x === 'string' ? x : JSON.stringify(x))).join('; ') };
  if (typeof v === 'number' && Number.isFinite(v)) return { t: 'number', v };
  if (typeof v === 'boolean') return { t: 'boolean', v };
  return { t: 'text', v: JSON.stringify(v) };
}

/** `OVERRIDDEN` where a person's value is shown, else the cell's 2.4 status. */
export function statusText(cell: ExportCell): string {
  return cell.overridden ? 'OVERRIDDEN' : cell.status;
}

function fieldScalar(f: Field, row: ExportRow): Scalar {
  switch (f.kind) {
    case 'document':
      return { t: 'text', v: row.document };
    case 'rowId':
      return { t: 'text', v: row.rowId };
  }
  const cell = row.cells[f.col]!;
  switch (f.kind) {
    case 'value':
      return scalarOf(cell.value);
    case 'confidence':
      return cell.confidence === null ? null : { t: 'number', v: cell.confidence };
    case 'citations':
      return cell.citations.length === 0 ? null : { t: 'text', v: citationsText(cell.citations) };
    case 'status':
      return { t: 'text', v: statusText(cell) };
  }
}

// ---------------------------------------------------------------------------------------------
// CSV

const CSV_SPECIAL = /[",\r\n]/;
/** Text a spreadsheet would run as a formula (CSV injection): kept as text with a leading '. */
const FORMULA_START = /^[=+\-@\t\r]/;

/** One RFC 4180 field: quoted when it holds a comma, quote, CR or LF, quotes doubled. */
export function csvField(text: string): string {
  return CSV_SPECIAL.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

/** Text as a CSV field; text that would start a formula in a spreadsheet is prefixed with '. */
export function csvText(text: string): string {
  return csvField(FORMULA_START.test(text) ? `'${text}` : text);
}

function csvScalar(s: Scalar): string {
  if (s === null) return '';
  switch (s.t) {
    case 'text':
      return csvText(s.v);
    case 'number':
      return String(s.v);
    case 'date':
      return s.v;
    case 'boolean':
      return s.v ? 'true' : 'false';
  }
}

const FLUSH_AT = 64 * 1024;

/** The CSV text in chunks of about 64 KB, CRLF after every record (the header included). */
export async function* csvChunks(exp: TableExport, opts: ExportOptions): AsyncGenerator<string> {
  const { fields, headers } = exportLayout(exp.columns, opts.include);
  let out = `${opts.bom ? '\uFEFF' : ''}${headers.map(csvText).join(',')}\r\n`;
  for await (const row of exp.rows()) {
    out += `${fields.map((f) => csvScalar(fieldScalar(f, row))).join(',')}\r\n`;
    if (out.length >= FLUSH_AT) {
      yield out;
      out = '';
    }
  }
  yield out;
}

// ---------------------------------------------------------------------------------------------
// JSON

function jsonValue(f: Field, row: ExportRow): unknown {
  switch (f.kind) {
    case 'document':
      return row.document;
    case 'rowId':
      return row.rowId;
  }
  const cell = row.cells[f.col]!;
  switch (f.kind) {
    case 'value': {
      const v = cell.value;
      if (v === null || v === undefined) return null;
      // A typed answer is its value (number, ISO date string, boolean, string, list); a
      // picture stays its array of regions.
      return isTyped(v) ? (v.value ?? null) : v;
    }
    case 'confidence':
      return cell.confidence;
    case 'citations':
      return cell.citations.map((c) => ({
        fileId: c.fileId,
        page: c.page,
        quote: c.quote,
        box: c.box ?? null,
      }));
    case 'status':
      return statusText(cell);
  }
}

/** `[`, one object per row (keys in header order), `]`, in chunks of about 64 KB. */
export async function* jsonChunks(exp: TableExport, opts: ExportOptions): AsyncGenerator<string> {
  const { fields, headers } = exportLayout(exp.columns, opts.include);
  let out = '[';
  let first = true;
  for await (const row of exp.rows()) {
    const obj: Record<string, unknown> = {};
    fields.forEach((f, i) => {
      obj[headers[i]!] = jsonValue(f, row);
    });
    out += `${first ? '\n' : ',\n'}${JSON.stringify(obj)}`;
    first = false;
    if (out.length >= FLUSH_AT) {
      yield out;
      out = '';
    }
  }
  yield `${out}${first ? '' : '\n'}]\n`;
}

// ---------------------------------------------------------------------------------------------
// XLSX

/** Excel's limit for the text of one cell. */
const XLSX_TEXT_MAX = 32_767;
const DATE_FORMAT = 'yyyy-mm-dd';
/** Cells written between checks of the writer's backlog. */
const XLSX_CELLS_PER_CHECK = 4_000;
/** Worksheet XML allowed to wait for the zip stage, and zipped bytes for the client, before rows stop. */
const XLSX_XML_BACKLOG_MAX = 1024 * 1024;
const XLSX_ZIPPED_BACKLOG_MAX = 128 * 1024;

/** A worksheet name Excel accepts: no []:*?/\, not blank, at most 31 characters. */
export function sheetName(tableName: string): string {
  const name = [
    ...tableName
      // biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what is removed
      .replace(/[[\]:*?/\\\u0000-\u001f]/g, ' ')
      .replace(/\s+/g, ' ')
      .trim(),
  ]
    .slice(0, 31)
    .join('')
    .replace(/^'+|'+$/g, '')
    .trim();
  return name || 'Table';
}

/** Text cut to Excel's limit, never inside a surrogate pair, with an ellipsis when cut. */
function xlsxText(s: string): string {
  if (s.length <= XLSX_TEXT_MAX) return s;
  let end = XLSX_TEXT_MAX - 1;
  const last = s.charCodeAt(end - 1);
  if (last >= 0xd800 && last <= 0xdbff) end -= 1;
  return `${s.slice(0, end)}…`;
}

/**
 * An ISO day as an Excel date: midnight UTC, which exceljs turns into a whole-day serial.
 * Null before 1900, which Excel cannot show as a date (the ISO text is written instead).
 */
function excelDate(iso: string): Date | null {
  const [y, m, d] = iso.split('-').map(Number) as [number, number, number];
  return y < 1900 ? null : new Date(Date.UTC(y, m - 1, d));
}

function xlsxValue(s: Scalar): ExcelJS.CellValue {
  if (s === null) return null;
  switch (s.t) {
    case 'text':
      return xlsxText(s.v);
    case 'number':
    case 'boolean':
      return s.v;
    case 'date':
      return excelDate(s.v) ?? s.v;
  }
}

/** The bytes a stream holds, in Node's streams or the readable-stream copies exceljs and archiver use. */
interface Buffered {
  writableLength?: number;
  readableLength?: number;
  _writableState?: { length?: number };
  _readableState?: { length?: number };
}
function held(s: Buffered): number {
  return (
    (s.writableLength ?? s._writableState?.length ?? 0) + (s.readableLength ?? s._readableState?.length ?? 0)
  );
}

/**
 * What exceljs's streaming writer has not delivered yet. Its worksheet stream ignores
 * backpressure (it writes on into the stream archiver reads the entry from), and so does
 * archiver's own output buffer: rows are counted here, uncompressed (the worksheet's buffers
 * and the streams it writes into) and compressed (archiver's output and `out`), and no row is
 * added while either is over its bound. A slow or stalled client fills `out` and archiver's
 * buffer, and the rows wait.
 */
function backlogOf(book: ExcelJS.stream.xlsx.WorkbookWriter, sheet: ExcelJS.Worksheet, out: Writable) {
  const s = (sheet as unknown as { stream?: { buffers?: { length: number }[]; pipes?: Buffered[] } }).stream;
  let xml = 0;
  for (const b of s?.buffers ?? []) xml += b.length;
  for (const p of s?.pipes ?? []) xml += held(p);
  const zip = (book as unknown as { zip?: Buffered }).zip;
  return { xml, zipped: (zip ? held(zip) : 0) + held(out as Buffered) };
}

/** Writes the workbook to `out` (ended when done); rejects, without ending `out`, when it is destroyed. */
export async function writeXlsx(exp: TableExport, opts: ExportOptions, out: Writable): Promise<void> {
  const { fields, headers } = exportLayout(exp.columns, opts.include);
  const book = new ExcelJS.stream.xlsx.WorkbookWriter({
    stream: out,
    useStyles: true,
    useSharedStrings: false,
  });
  book.creator = 'Folio';
  const sheet = book.addWorksheet(sheetName(exp.table.name), { views: [{ state: 'frozen', ySplit: 1 }] });
  sheet.columns = fields.map((f, i) => ({
    key: `c${i}`,
    width:
      f.kind === 'document'
        ? 32
        : f.kind === 'rowId'
          ? 26
          : Math.min(60, Math.max(12, headers[i]!.length + 2)),
  }));
  const head = sheet.addRow(headers);
  head.font = { bold: true };
  head.commit();

  const rowsPerCheck = Math.max(1, Math.floor(XLSX_CELLS_PER_CHECK / fields.length));
  let n = 0;
  for await (const row of exp.rows()) {
    if (out.destroyed) throw new Error('export: the download was closed');
    const scalars = fields.map((f) => fieldScalar(f, row));
    const r = sheet.addRow(scalars.map(xlsxValue));
    scalars.forEach((s, i) => {
      if (s?.t === 'date' && excelDate(s.v)) r.getCell(i + 1).numFmt = DATE_FORMAT;
    });
    r.commit();
    if (++n % rowsPerCheck === 0) {
      // Let the zip stage run, then wait while it is behind (the client is slow or gone).
      await new Promise((resolve) => setImmediate(resolve));
      for (;;) {
        const b = backlogOf(book, sheet, out);
        if (b.xml <= XLSX_XML_BACKLOG_MAX && b.zipped <= XLSX_ZIPPED_BACKLOG_MAX) break;
        if (out.destroyed) throw new Error('export: the download was closed');
        await sleep(5);
      }
    }
  }
  sheet.commit();
  await book.commit();
}
