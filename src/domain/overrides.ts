import type { Clock } from '../infra/clock.ts';
import type { Database, Queryable } from '../infra/db/database.ts';
import { newId } from '../infra/ids.ts';
import { type CellForOverride, repos } from '../infra/repos/index.ts';
import { type Cell, toCell } from './cells.ts';
import { OUTPUT_TYPES } from './columns.ts';
import { errors } from './errors.ts';
import { lockLiveTable } from './tables.ts';
import { emitEvent } from './webhooks.ts';

/** A human override as stored: the shape of a typed value (interface.md 2.4). */
export interface Override {
  type: string;
  value: string | number | boolean | string[] | null;
}

/** Longest text (and list item) a human may type in; a quote, not a document. */
export const OVERRIDE_TEXT_MAX = 10_000;
export const OVERRIDE_LIST_MAX = 1_000;

const REGIONS_REFUSED =
  'Hand-authored regions are refused: an image column is overridden with text, {"type": "text_quote", "value": "..."}, which replaces the picture permanently.';

function isPlainObject(x: unknown): x is Record<string, unknown> {
  return typeof x === 'object' && x !== null && !Array.isArray(x);
}

/** Anything that looks like a region or a list of regions (2.4): fileId, page or box. */
function looksLikeRegion(x: unknown): boolean {
  if (Array.isArray(x)) return x.some(looksLikeRegion);
  return isPlainObject(x) && ('fileId' in x || 'page' in x || 'box' in x);
}

/** The allowed categories from a column's `config` JSON string, or null when it declares none. */
export function configCategories(config: string | null): string[] | null {
  if (config === null) return null;
  let parsed: unknown;
  try {
    parsed = JSON.parse(config);
  } catch {
    return null;
  }
  if (!isPlainObject(parsed) || !Array.isArray(parsed.categories)) return null;
  return parsed.categories.filter((c): c is string => typeof c === 'string');
}

function daysInMonth(year: number, month: number): number {
  if (month === 2) return (year % 4 === 0 && year % 100 !== 0) || year % 400 === 0 ? 29 : 28;
  return [4, 6, 9, 11].includes(month) ? 30 : 31;
}

/** `YYYY-MM-DD` naming a day that exists (no 2023-02-30). */
export function isCalendarDate(s: string): boolean {
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(s);
  if (!m) return false;
  const [y, mo, d] = [Number(m[1]), Number(m[2]), Number(m[3])];
  return y >= 1 && mo >= 1 && mo <= 12 && d >= 1 && d <= daysInMonth(y, mo);
}

function text(value: unknown, what: string): string {
  if (typeof value !== 'string') throw errors.badRequest(`${what} must be a string or null.`);
  if (value.trim() === '') throw errors.badRequest(`${what} must not be blank; use null for "not stated".`);
  if (value.length > OVERRIDE_TEXT_MAX)
    throw errors.badRequest(`${what} must be at most ${OVERRIDE_TEXT_MAX} characters.`);
  return value;
}

/**
 * Checks a requested override against the column (4.4) and returns it as stored: exactly
 * `{type, value}`, other keys dropped. A typed column takes its own type and a value of
 * that type, or null ("not stated"). An image or image_list column takes text only, stored
 * as `text_quote`; regions are refused. Pure: throws a 400 AppError on any mismatch.
 */
export function validateOverride(
  column: { outputType: string; config: string | null },
  input: unknown,
): Override {
  const { outputType } = column;
  const image = outputType === 'image' || outputType === 'image_list';
  if (image && looksLikeRegion(input)) throw errors.badRequest(REGIONS_REFUSED);
  if (!isPlainObject(input)) {
    const got = input === null ? 'null' : Array.isArray(input) ? 'an array' : `a ${typeof input}`;
    const want = image ? 'text_quote' : outputType;
    throw errors.badRequest(`value must be a JSON object {"type": "${want}", "value": ...}, not ${got}.`);
  }
  const { type } = input;
  if (typeof type !== 'string') throw errors.badRequest('value.type is required and must be a string.');
  if (!('value' in input)) throw errors.badRequest('value.value is required; use null for "not stated".');
  const v = input.value;

  if (image) {
    if (type !== 'text_quote' && type !== outputType) {
      throw errors.badRequest(
        `value.type must be text_quote for an ${outputType} column: an override replaces the picture with text.`,
      );
    }
    if (Array.isArray(v) || isPlainObject(v)) throw errors.badRequest(REGIONS_REFUSED);
    return { type: 'text_quote', value: v === null ? null : text(v, 'value.value') };
  }

  if (type !== outputType) {
    const known = (OUTPUT_TYPES as readonly string[]).includes(type);
    throw errors.badRequest(
      `value.type must be ${outputType}, the column's output type${known ? `, not ${type}` : ''}.`,
    );
  }
  if (v === null) return { type, value: null };

  switch (outputType) {
    case 'text_quote':
      return { type, value: text(v, 'value.value') };
    case 'number':
      if (typeof v !== 'number' || !Number.isFinite(v))
        throw errors.badRequest('value.value must be a finite number (not a string) or null.');
      return { type, value: v };
    case 'date':
      if (typeof v !== 'string' || !isCalendarDate(v))
        throw errors.badRequest('value.value must be an ISO date YYYY-MM-DD that exists, or null.');
      return { type, value: v };
    case 'boolean':
      if (typeof v !== 'boolean') throw errors.badRequest('value.value must be true, false or null.');
      return { type, value: v };
    case 'categorical': {
      const s = text(v, 'value.value');
      const categories = configCategories(column.config);
      if (categories !== null && !categories.includes(s)) {
        throw errors.badRequest(
          `value.value must be one of the column's categories, spelled as declared: ${categories
            .map((c) => JSON.stringify(c))
            .join(', ')}.`,
        );
      }
      return { type, value: s };
    }
    case 'list_scalar': {
      if (!Array.isArray(v)) throw errors.badRequest('value.value must be an array of strings or null.');
      if (v.length > OVERRIDE_LIST_MAX)
        throw errors.badRequest(`value.value must have at most ${OVERRIDE_LIST_MAX} items.`);
      return { type, value: v.map((item, i) => text(item, `value.value[${i}]`)) };
    }
    default:
      // A column type this code does not know cannot be checked, so it cannot be overridden.
      throw errors.badRequest(`Cells of a ${outputType} column cannot be overridden.`);
  }
}

function refuseArchived(c: CellForOverride): void {
  if (c.column_archived_at !== null)
    throw errors.badRequest('Column is archived and can no longer be changed.');
  if (c.row_archived_at !== null) throw errors.badRequest('Row is archived and can no longer be changed.');
}

async function lockCell(tx: Queryable, workspaceId: string, tableId: string, cellId: string) {
  await lockLiveTable(tx, workspaceId, tableId);
  const c = await repos(tx).cellOverrides.lockCellForOverride(tableId, cellId);
  if (!c) throw errors.notFound('Cell');
  refuseArchived(c);
  return c;
}

async function reread(tx: Queryable, tableId: string, cellId: string): Promise<Cell> {
  const c = await repos(tx).cells.findCellWithStale(tableId, cellId);
  if (!c) throw errors.notFound('Cell');
  return toCell(c);
}

/**
 * Sets a human override beside the extracted value (3.2) in any cell status, and appends
 * `override_set` carrying the new value, the prior extracted value (null unless SUCCESS, as
 * served) and the prior override, with the acting key, in the same transaction.
 */
export async function setOverride(
  db: Database,
  ids: { workspaceId: string; tableId: string; cellId: string },
  input: unknown,
  actorId: string,
  clock: Clock,
): Promise<Cell> {
  return db.transaction(async (tx) => {
    const c = await lockCell(tx, ids.workspaceId, ids.tableId, ids.cellId);
    const override = validateOverride({ outputType: c.output_type, config: c.column_config }, input);
    await writeOverride(
      tx,
      c.id,
      override,
      actorId,
      'override_set',
      {
        value: override,
        priorValue: c.status === 'SUCCESS' ? (c.value ?? null) : null,
        priorOverride: c.human_override ?? null,
      },
      clock(),
    );
    await emitEvent(tx, ids.workspaceId, 'cell.override_set', overrideEvent(ids, c), clock());
    return reread(tx, ids.tableId, c.id);
  });
}

/**
 * Clears the override (the cell is re-armed: runs skip only overridden cells) and appends
 * `override_cleared` with the cleared value. A cell without an override is returned as it
 * is and logs nothing.
 */
export async function clearOverride(
  db: Database,
  ids: { workspaceId: string; tableId: string; cellId: string },
  actorId: string,
  clock: Clock,
): Promise<Cell> {
  return db.transaction(async (tx) => {
    const c = await lockCell(tx, ids.workspaceId, ids.tableId, ids.cellId);
    if (c.human_override === null || c.human_override === undefined) return reread(tx, ids.tableId, c.id);
    await writeOverride(
      tx,
      c.id,
      null,
      actorId,
      'override_cleared',
      { priorOverride: c.human_override },
      clock(),
    );
    await emitEvent(tx, ids.workspaceId, 'cell.override_cleared', overrideEvent(ids, c), clock());
    return reread(tx, ids.tableId, c.id);
  });
}

/** Which cell a webhook's override event is about: ids only, never the values. */
function overrideEvent(ids: { tableId: string; cellId: string }, c: { row_id: string; column_id: string }) {
  return { tableId: ids.tableId, cellId: ids.cellId, rowId: c.row_id, columnId: c.column_id };
}

/** The override and its event, always together (2.5: the log is append-only and complete). */
async function writeOverride(
  tx: Queryable,
  cellId: string,
  override: unknown,
  actorId: string,
  type: 'override_set' | 'override_cleared',
  data: Record<string, unknown>,
  now: number,
): Promise<void> {
  await repos(tx).cellOverrides.updateCellOverride(cellId, override, now);
  await repos(tx).cellEvents.appendCellEvent({
    id: newId('rcev'),
    cell_id: cellId,
    type,
    data: JSON.stringify(data),
    actor_id: actorId,
    created_at: now,
  });
}
