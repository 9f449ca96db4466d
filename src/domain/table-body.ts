import type { Queryable } from '../infra/db/database.ts';
import { repos, type TableFingerprint } from '../infra/repos/index.ts';
import { listTableColumns } from './columns.ts';
import { listTableRows } from './rows.ts';
import { getTable } from './tables.ts';

/** Where the parts of a GET-table body sit, so that the next body can copy the unchanged ones. */
export interface BodyLayout {
  /** TableFingerprint.head of the state shown: equal means the bytes before the cells still hold. */
  head: string;
  /** body[0, headEnd) is the envelope, table, columns and rows, up to and including `"cells":[`. */
  headEnd: number;
  /** cellLayoutKey of the state shown: the cell fragments below are only reusable under the same one. */
  cells: string;
  /** Per row with cells: its listRowCellKeys key and the bytes of its cells in body. */
  rows: Map<string, { k: string; start: number; end: number }>;
}

const CELLS_OPEN = '"cells":[';
const TAIL = Buffer.from(']}}');
const COMMA = 0x2c;

/** Rough memory of a layout, for the cache's byte bound. */
export function layoutBytes(layout: BodyLayout): number {
  return 200 * layout.rows.size;
}

/**
 * The GET-table body `{success, total, data: {table, columns, rows, cells}}` for the state
 * `fp` names, read in the caller's snapshot. The database writes each row's cells as JSON text
 * (listRowCellsJson), spliced in as bytes, never parsed. Against `prev`, the body filed for an
 * earlier state, only rows whose key changed are read again: a run writing a few cells costs a
 * few rows, not the whole table. Every byte copied from `prev` is one the database would write
 * again the same way, because the keys cover everything that text depends on.
 */
export async function buildTableBody(
  tx: Queryable,
  workspaceId: string,
  tableId: string,
  fp: TableFingerprint,
  prev: { body: Buffer; layout: BodyLayout } | null,
): Promise<{ body: Buffer; layout: BodyLayout }> {
  let head: Buffer;
  if (prev && prev.layout.head === fp.head) {
    head = prev.body.subarray(0, prev.layout.headEnd);
  } else {
    const table = await getTable(tx, workspaceId, tableId);
    const columns = await listTableColumns(tx, tableId);
    const rows = await listTableRows(tx, tableId);
    // The envelope ok() of http/schema.ts writes for one record, spelt out: the domain stays free of HTTP.
    const shell = JSON.stringify({ success: true, total: 1, data: { table, columns, rows, cells: [] } });
    if (!shell.endsWith(`${CELLS_OPEN}]}}`)) throw new Error('GET table: unexpected envelope shape');
    head = Buffer.from(shell.slice(0, shell.length - TAIL.length));
  }

  const cellsKey = await repos(tx).cells.cellLayoutKey(tableId);
  const keys = await repos(tx).cells.listRowCellKeys(tableId);
  const reusable: BodyLayout['rows'] = prev && prev.layout.cells === cellsKey ? prev.layout.rows : new Map();
  const changed = keys.filter((r) => reusable.get(r.id)?.k !== r.k).map((r) => r.id);
  const fresh = new Map<string, string>();
  if (changed.length > 0) {
    for (const r of await repos(tx).cells.listRowCellsJson(tableId, changed)) if (r.j) fresh.set(r.id, r.j);
  }

  // Sizes first, then one buffer written in place: no intermediate copies of 50 MB.
  let size = head.length + TAIL.length;
  const parts: { id: string; k: string; text: string | null; from: number; to: number; bytes: number }[] = [];
  for (const { id, k } of keys) {
    const old = reusable.get(id);
    if (old?.k === k) {
      parts.push({ id, k, text: null, from: old.start, to: old.end, bytes: old.end - old.start });
    } else {
      const text = fresh.get(id);
      if (text) parts.push({ id, k, text, from: 0, to: 0, bytes: Buffer.byteLength(text) });
    }
  }
  for (const p of parts) size += p.bytes;
  size += Math.max(parts.length - 1, 0);

  const body = Buffer.allocUnsafe(size);
  let at = head.copy(body, 0);
  const layout: BodyLayout = { head: fp.head, headEnd: at, cells: cellsKey, rows: new Map() };
  for (const [i, p] of parts.entries()) {
    if (i > 0) body[at++] = COMMA;
    const start = at;
    at += p.text !== null ? body.write(p.text, at) : prev!.body.copy(body, at, p.from, p.to);
    layout.rows.set(p.id, { k: p.k, start, end: at });
  }
  at += TAIL.copy(body, at);
  if (at !== size) throw new Error(`GET table: body size ${at} != ${size}`);
  return { body, layout };
}
