import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { listTableCells } from '../src/domain/cells.ts';
import { listTableColumns } from '../src/domain/columns.ts';
import { listTableRows } from '../src/domain/rows.ts';
import { buildTableBody } from '../src/domain/table-body.ts';
import { getTable } from '../src/domain/tables.ts';
import { ok } from '../src/http/schema.ts';
import { newId } from '../src/infra/ids.ts';
import { type CellRow, insertCell } from '../src/infra/repos/cells.ts';
import { tableFingerprint } from '../src/infra/repos/table-fingerprint.ts';
import { type Harness, startHarness, type TestWorkspace } from './helpers/harness.ts';
import { seedCell, seedFile, seedFiles } from './helpers/seed.ts';

// decisions.md D2 (rows), interface.md 4.1 (GET table), 4.4 (GET cells), 2.4 (cell), 3.2 (staleness), 3.4 (archiving).
describe('rows, cells and staleness', () => {
  let h: Harness;
  let ws: TestWorkspace;
  let tableId: string;
  let tbase: string;
  beforeAll(async () => {
    h = await startHarness();
    ws = await h.workspace();
    tableId = (
      await h.request('POST', `/v2/workspaces/${ws.id}/tables`, { key: ws.key, body: { name: 'T' } })
    ).json().data.id;
    tbase = `/v2/workspaces/${ws.id}/tables/${tableId}`;
  });
  afterAll(() => h.close());

  const addRow = (body: unknown) => h.request('POST', `${tbase}/rows`, { key: ws.key, body });

  /**
   * A table with a file row, a bundle row (of two other files) and a file row left without cells,
   * at the sort orders given: [file, bundle, empty].
   */
  async function tableWithRows(name: string, [fileOrder, bundleOrder, emptyOrder]: [number, number, number]) {
    const t = (
      await h.request('POST', `/v2/workspaces/${ws.id}/tables`, { key: ws.key, body: { name } })
    ).json().data;
    const base = `/v2/workspaces/${ws.id}/tables/${t.id}`;
    const [f1, f2, f3, f4] = await seedFiles(h.db, ws.id, 4);
    const bundle = (
      await h.request('POST', `/v2/workspaces/${ws.id}/bundles`, {
        key: ws.key,
        body: { name: 'B', fileIds: [f1, f2] },
      })
    ).json().data;
    const post = async (path: string, body: unknown) =>
      (await h.request('POST', `${base}/${path}`, { key: ws.key, body })).json().data;
    const fileRow = await post('rows', { subjectType: 'file', subjectId: f3, sortOrder: fileOrder });
    const bundleRow = await post('rows', {
      subjectType: 'bundle',
      subjectId: bundle.id,
      sortOrder: bundleOrder,
    });
    const emptyRow = await post('rows', { subjectType: 'file', subjectId: f4, sortOrder: emptyOrder });
    return { t, base, f1, f2, f3, f4, bundle, post, fileRow, bundleRow, emptyRow };
  }

  it('adds rows for files and bundles of the workspace; the same subject twice returns the existing row', async () => {
    const file = await seedFile(h.db, ws.id);
    const r = await addRow({ subjectType: 'file', subjectId: file });
    expect(r.statusCode).toBe(200);
    expect(r.json().data).toMatchObject({
      tableId,
      subjectType: 'file',
      subjectId: file,
      sortOrder: 0,
      archivedAt: null,
    });
    expect(r.json().data.id).toMatch(/^rrow_/);
    const again = await addRow({ subjectType: 'file', subjectId: file });
    expect(again.json().data.id).toBe(r.json().data.id);
    const bundle = (
      await h.request('POST', `/v2/workspaces/${ws.id}/bundles`, {
        key: ws.key,
        body: { name: 'B', fileIds: [file] },
      })
    ).json().data;
    expect((await addRow({ subjectType: 'bundle', subjectId: bundle.id })).json().data).toMatchObject({
      subjectType: 'bundle',
      sortOrder: 1,
    });

    const other = await h.workspace();
    const foreign = await seedFile(h.db, other.id);
    for (const body of [
      { subjectType: 'file', subjectId: foreign },
      { subjectType: 'file', subjectId: bundle.id },
      { subjectType: 'bundle', subjectId: file },
      { subjectType: 'folder', subjectId: file },
      { subjectType: 'file' },
    ]) {
      expect((await addRow(body)).statusCode).toBe(400);
    }
    const rows = (await h.request('GET', `${tbase}/rows`, { key: ws.readKey })).json();
    expect(rows.total).toBe(2);
  });

  it('archives rows, which stay listed', async () => {
    const row = (await addRow({ subjectType: 'file', subjectId: await seedFile(h.db, ws.id) })).json().data;
    const a = await h.request('DELETE', `${tbase}/rows/${row.id}`, { key: ws.key });
    expect(a.json().data.archivedAt).toBeGreaterThan(0);
    const listed = (await h.request('GET', `${tbase}/rows`, { key: ws.key }))
      .json()
      .data.find((r: { id: string }) => r.id === row.id);
    expect(listed.archivedAt).toBe(a.json().data.archivedAt);
    expect(
      (await h.request('DELETE', `${tbase}/rows/rrow_nothere0000000000000`, { key: ws.key })).statusCode,
    ).toBe(404);
  });

  it('computes stale from the column version and the bundle documentsVersion, and GET table returns it all', async () => {
    const t = (
      await h.request('POST', `/v2/workspaces/${ws.id}/tables`, { key: ws.key, body: { name: 'S' } })
    ).json().data;
    const base = `/v2/workspaces/${ws.id}/tables/${t.id}`;
    const [f1, f2, f3] = await seedFiles(h.db, ws.id, 3);
    const bundle = (
      await h.request('POST', `/v2/workspaces/${ws.id}/bundles`, {
        key: ws.key,
        body: { name: 'B', fileIds: [f1, f2] },
      })
    ).json().data;
    const fileRow = (
      await h.request('POST', `${base}/rows`, { key: ws.key, body: { subjectType: 'file', subjectId: f3 } })
    ).json().data;
    const bundleRow = (
      await h.request('POST', `${base}/rows`, {
        key: ws.key,
        body: { subjectType: 'bundle', subjectId: bundle.id },
      })
    ).json().data;
    const col = (
      await h.request('POST', `${base}/columns`, { key: ws.key, body: { name: 'Q', prompt: 'first' } })
    ).json().data;
    const col2 = (
      await h.request('POST', `${base}/columns`, { key: ws.key, body: { name: 'R', prompt: 'other' } })
    ).json().data;
    const c1 = await seedCell(h.db, { tableId: t.id, rowId: fileRow.id, columnId: col.id, columnVersion: 1 });
    const c2 = await seedCell(h.db, {
      tableId: t.id,
      rowId: bundleRow.id,
      columnId: col.id,
      columnVersion: 1,
      bundleVersion: 1,
    });
    const c3 = await seedCell(h.db, {
      tableId: t.id,
      rowId: bundleRow.id,
      columnId: col2.id,
      columnVersion: 1,
      bundleVersion: 1,
      status: 'ERROR',
    });

    const stale = async () =>
      Object.fromEntries(
        (await h.request('GET', `${base}/cells`, { key: ws.readKey }))
          .json()
          .data.map((c: { id: string; stale: boolean }) => [c.id, c.stale]),
      );
    expect(await stale()).toEqual({ [c1]: false, [c2]: false, [c3]: false });

    await h.request('PATCH', `${base}/columns/${col.id}`, {
      key: ws.key,
      body: { name: 'renamed', creditRate: 10 },
    });
    expect(await stale()).toEqual({ [c1]: false, [c2]: false, [c3]: false });
    await h.request('PATCH', `${base}/columns/${col.id}`, { key: ws.key, body: { prompt: 'second' } });
    expect(await stale()).toEqual({ [c1]: true, [c2]: true, [c3]: false });

    await h.request('PATCH', `/v2/workspaces/${ws.id}/bundles/${bundle.id}`, {
      key: ws.key,
      body: { name: 'renamed' },
    });
    expect((await stale())[c3]).toBe(false);
    await h.request('POST', `/v2/workspaces/${ws.id}/bundles/${bundle.id}/files`, {
      key: ws.key,
      body: { fileIds: [f3] },
    });
    expect(await stale()).toEqual({ [c1]: true, [c2]: true, [c3]: true });

    // Archived columns stay listed with their cells readable (3.4).
    await h.request('DELETE', `${base}/columns/${col2.id}`, { key: ws.key });
    const full = (await h.request('GET', base, { key: ws.readKey })).json();
    expect(full.data.columns.map((c: { id: string }) => c.id)).toEqual([col.id, col2.id]);
    expect(full.data.columns[1].archivedAt).toBeGreaterThan(0);
    expect(full.data.rows.map((r: { id: string }) => r.id)).toEqual([fileRow.id, bundleRow.id]);
    const cells = full.data.cells as Record<string, unknown>[];
    expect(cells).toHaveLength(3);
    const errored = cells.find((c) => c.id === c3)!;
    expect(errored).toMatchObject({
      status: 'ERROR',
      value: null,
      citations: [],
      confidence: null,
      columnId: col2.id,
      stale: true,
    });
    const good = cells.find((c) => c.id === c1)!;
    expect(good).toMatchObject({
      status: 'SUCCESS',
      value: { type: 'text_quote', value: 'seeded' },
      columnVersion: 1,
      bundleVersion: 1,
      humanOverride: null,
    });
  });

  it('GET table serves an ETag, answers 304 while nothing changed, and never serves a stale copy', async () => {
    const t = (
      await h.request('POST', `/v2/workspaces/${ws.id}/tables`, { key: ws.key, body: { name: 'C' } })
    ).json().data;
    const base = `/v2/workspaces/${ws.id}/tables/${t.id}`;
    const file = await seedFile(h.db, ws.id);
    const bundle = (
      await h.request('POST', `/v2/workspaces/${ws.id}/bundles`, {
        key: ws.key,
        body: { name: 'B', fileIds: [file] },
      })
    ).json().data;
    const row = (
      await h.request('POST', `${base}/rows`, {
        key: ws.key,
        body: { subjectType: 'bundle', subjectId: bundle.id },
      })
    ).json().data;
    const col = (
      await h.request('POST', `${base}/columns`, { key: ws.key, body: { name: 'Q', prompt: 'p' } })
    ).json().data;
    const cell = await seedCell(h.db, { tableId: t.id, rowId: row.id, columnId: col.id, columnVersion: 1 });

    const first = await h.request('GET', base, { key: ws.key });
    const etag = first.headers.etag as string;
    expect(etag).toMatch(/^"/);
    expect(first.json().data.cells[0]).toMatchObject({ id: cell, stale: false });
    expect(
      (await h.request('GET', base, { key: ws.key, headers: { 'if-none-match': etag } })).statusCode,
    ).toBe(304);

    await h.db.query(`UPDATE cells SET value = '{"type":"text_quote","value":"changed"}' WHERE id = $1`, [
      cell,
    ]);
    const changed = await h.request('GET', base, { key: ws.key, headers: { 'if-none-match': etag } });
    expect(changed.statusCode).toBe(200);
    expect(changed.json().data.cells[0].value.value).toBe('changed');

    await h.request('POST', `/v2/workspaces/${ws.id}/bundles/${bundle.id}/files`, {
      key: ws.key,
      body: { fileIds: [await seedFile(h.db, ws.id)] },
    });
    expect((await h.request('GET', base, { key: ws.key })).json().data.cells[0].stale).toBe(true);
    await h.request('PATCH', base, { key: ws.key, body: { name: 'renamed' } });
    expect((await h.request('GET', base, { key: ws.key })).json().data.table.name).toBe('renamed');
    await h.request('PATCH', `${base}/columns/${col.id}`, { key: ws.key, body: { name: 'Q2' } });
    expect((await h.request('GET', base, { key: ws.key })).json().data.columns[0].name).toBe('Q2');
  });

  it('GET table, rebuilt from its previous body after each change, equals the objects serialized in JS', async () => {
    const { t, base, f3, f4, bundle, post, fileRow, bundleRow, emptyRow } = await tableWithRows(
      'J "q"\n',
      [5, 1, 3],
    );
    // Created in one order, sorted in another: cells follow the columns' sortOrder.
    const colA = await post('columns', { name: 'A', prompt: 'a', sortOrder: 2, config: '{"x":"\\u0001"}' });
    const colB = await post('columns', { name: 'B', prompt: 'b', sortOrder: 0 });
    const colC = await post('columns', { name: 'C', prompt: 'c', sortOrder: 1 });
    const cell = async (over: Partial<CellRow> & Pick<CellRow, 'row_id' | 'column_id'>) => {
      const id = newId('rcel');
      await insertCell(h.db, {
        id,
        table_id: t.id,
        status: 'SUCCESS',
        status_text: null,
        block_reason: null,
        value: { type: 'text_quote', value: 'plain' },
        citations: [{ fileId: f3, page: 1, quote: 'q', box: [0.1, 0.2, 0.5, 0.25] }],
        confidence: 0.87,
        human_override: null,
        column_version: 1,
        bundle_version: 1,
        run_id: null,
        created_at: 1_700_000_000_123,
        updated_at: 1_700_000_000_456,
        ...over,
      });
      return id;
    };
    const odd = 'quote " backslash \\ newline \n tab \t bell \u0007 del \u007f é 漢字 😀 \u2028';
    const c1 = await cell({
      row_id: fileRow.id,
      column_id: colA.id,
      value: { type: 'text_quote', value: odd },
    });
    await cell({
      row_id: fileRow.id,
      column_id: colB.id,
      value: { type: 'number', value: 1.5, big: 1e21, small: 5e-7, list: [1, 'two', null, true, { z: {} }] },
      confidence: 1e-7,
      human_override: { type: 'text_quote', value: odd },
    });
    await cell({ row_id: fileRow.id, column_id: colC.id, confidence: Number.NaN, citations: [] });
    await cell({
      row_id: bundleRow.id,
      column_id: colA.id,
      status: 'ERROR',
      status_text: odd,
      block_reason: 'blocked "here"',
      confidence: 0.5,
    });
    const c5 = await cell({ row_id: bundleRow.id, column_id: colB.id, confidence: null, bundle_version: 1 });
    await cell({ row_id: bundleRow.id, column_id: colC.id, status: 'IN_QUEUE', value: null, confidence: 0 });
    await cell({ row_id: fileRow.id, column_id: newId('rcol') }).catch(() => {}); // refused by the foreign key

    const reference = async () =>
      JSON.parse(
        JSON.stringify(
          ok({
            table: await getTable(h.db, ws.id, t.id),
            columns: await listTableColumns(h.db, t.id),
            rows: await listTableRows(h.db, t.id),
            cells: await listTableCells(h.db, t.id),
          }),
        ),
      );
    // Built from nothing, in one snapshot, as the first request would.
    const scratch = () =>
      h.db.transaction(async (tx) => {
        const fp = await tableFingerprint(tx, t.id);
        return (await buildTableBody(tx, ws.id, t.id, fp, null)).body.toString();
      });
    const check = async () => {
      const r = await h.request('GET', base, { key: ws.readKey });
      expect(r.statusCode).toBe(200);
      expect(r.headers['content-type']).toMatch(/^application\/json/);
      expect(JSON.parse(r.body)).toEqual(await reference());
      expect(r.body).toBe(await scratch());
      return JSON.parse(r.body);
    };

    const first = await check();
    expect(first.data.cells.map((c: { rowId: string }) => c.rowId)).toEqual([
      bundleRow.id,
      bundleRow.id,
      bundleRow.id,
      fileRow.id,
      fileRow.id,
      fileRow.id,
    ]);
    expect(first.data.cells[0]).toMatchObject({ columnId: colB.id, confidence: null });
    expect(first.data.cells[5].value.value).toBe(odd);
    expect(first.data.cells.map((c: { confidence: unknown }) => c.confidence)).toEqual([
      null,
      null,
      null,
      1e-7,
      null,
      0.87,
    ]);
    expect(first.data.rows.map((r: { id: string }) => r.id)).toEqual([bundleRow.id, emptyRow.id, fileRow.id]);

    // One cell written (as a run does), a cell added to an empty row, one deleted.
    await h.db.query(
      `UPDATE cells SET value = '{"type":"text_quote","value":"changed"}', updated_at = 7 WHERE id = $1`,
      [c1],
    );
    await check();
    await cell({ row_id: emptyRow.id, column_id: colC.id, confidence: 0.25 });
    await check();
    await h.db.query('DELETE FROM cells WHERE id = $1', [c5]);
    await check();
    // Rows reordered; a bundle's documents change (its cells go stale); the table renamed.
    await h.db.query('UPDATE table_rows SET sort_order = 9 WHERE id = $1', [bundleRow.id]);
    expect((await check()).data.cells.at(-1).rowId).toBe(bundleRow.id);
    await h.request('POST', `/v2/workspaces/${ws.id}/bundles/${bundle.id}/files`, {
      key: ws.key,
      body: { fileIds: [f4] },
    });
    expect((await check()).data.cells.filter((c: { stale: boolean }) => c.stale)).toHaveLength(2);
    await h.request('PATCH', base, { key: ws.key, body: { name: 'renamed' } });
    await check();
    // Columns: a new prompt (stale), a new order, archived.
    await h.request('PATCH', `${base}/columns/${colB.id}`, { key: ws.key, body: { prompt: 'b2' } });
    expect((await check()).data.cells.filter((c: { stale: boolean }) => c.stale)).toHaveLength(3);
    await h.request('PATCH', `${base}/columns/${colA.id}`, { key: ws.key, body: { sortOrder: 0 } });
    await check();
    await h.request('DELETE', `${base}/columns/${colC.id}`, { key: ws.key });
    await check();
    await h.db.query('DELETE FROM cells WHERE table_id = $1', [t.id]);
    expect((await check()).data.cells).toEqual([]);
  });

  it('interface.md 4.4 GET …/cells: each cell is the very JSON the GET table body (4.1) holds for it, through every change', async () => {
    const { t, base, f3, f4, bundle, post, fileRow, bundleRow, emptyRow } = await tableWithRows(
      'cells "q"',
      [4, 2, 3],
    );
    const colA = await post('columns', { name: 'A', prompt: 'a', sortOrder: 1 });
    const colB = await post('columns', { name: 'B', prompt: 'b', sortOrder: 0 });
    const odd = 'quote " backslash \\ newline \n tab \t bell \u0007 é 漢字 😀 \u2028 "cells":[';
    const cell = async (over: Partial<CellRow> & Pick<CellRow, 'row_id' | 'column_id'>) => {
      const id = newId('rcel');
      await insertCell(h.db, {
        id,
        table_id: t.id,
        status: 'SUCCESS',
        status_text: null,
        block_reason: null,
        value: { type: 'text_quote', value: odd, nested: { cells: [1, 2.5e-8, null] } },
        citations: [{ fileId: f3, page: 2, quote: odd, box: [0.1, 0.2, 0.5, 0.25] }],
        confidence: 0.61,
        human_override: null,
        column_version: 1,
        bundle_version: 1,
        run_id: null,
        created_at: 1_700_000_000_001,
        updated_at: 1_700_000_000_002,
        ...over,
      });
      return id;
    };
    const c1 = await cell({ row_id: fileRow.id, column_id: colA.id });
    await cell({
      row_id: fileRow.id,
      column_id: colB.id,
      confidence: Number.NaN,
      human_override: { type: 'text_quote', value: odd },
    });
    await cell({
      row_id: bundleRow.id,
      column_id: colA.id,
      status: 'ERROR',
      status_text: odd,
      confidence: 0.5,
    });
    const c4 = await cell({ row_id: bundleRow.id, column_id: colB.id, status: 'IN_QUEUE', value: null });

    // Read both, `first` first: the body one route builds (and files) is the one the other serves.
    let first: 'table' | 'cells' = 'table';
    const same = async () => {
      const read = (path: string) => h.request('GET', path, { key: ws.readKey });
      const cellsFirst = first === 'cells';
      const early = await read(cellsFirst ? `${base}/cells` : base);
      const late = await read(cellsFirst ? base : `${base}/cells`);
      const [table, cells] = cellsFirst ? [late, early] : [early, late];
      first = cellsFirst ? 'table' : 'cells';
      expect(table.statusCode).toBe(200);
      expect(cells.statusCode).toBe(200);
      expect(cells.headers['content-type']).toBe('application/json; charset=utf-8');
      const tableCells = JSON.parse(table.body).data.cells as unknown[];
      // The same bytes for every cell, not only the same values.
      const at = table.body.indexOf('"cells":[') + '"cells":['.length;
      expect(cells.body).toBe(
        `{"success":true,"total":${tableCells.length},"data":[${table.body.slice(at, -']}}'.length)}]}`,
      );
      expect(JSON.parse(cells.body)).toEqual({ success: true, total: tableCells.length, data: tableCells });
      // And the cells the objects of domain/cells.ts serialize to (2.4, D3, 3.2 stale).
      expect(JSON.parse(cells.body).data).toEqual(
        JSON.parse(JSON.stringify(await listTableCells(h.db, t.id))),
      );
      return tableCells as { id: string; rowId: string; stale: boolean }[];
    };

    expect((await same()).map((c) => c.rowId)).toEqual([bundleRow.id, bundleRow.id, fileRow.id, fileRow.id]);
    await same();
    await h.db.query(`UPDATE cells SET value = '{"type":"text_quote","value":"changed"}' WHERE id = $1`, [
      c1,
    ]);
    await same();
    await cell({ row_id: emptyRow.id, column_id: colA.id, confidence: 0 });
    expect(await same()).toHaveLength(5);
    await h.db.query('DELETE FROM cells WHERE id = $1', [c4]);
    expect(await same()).toHaveLength(4);
    await h.request('POST', `/v2/workspaces/${ws.id}/bundles/${bundle.id}/files`, {
      key: ws.key,
      body: { fileIds: [f4] },
    });
    expect((await same()).filter((c) => c.stale)).toHaveLength(1);
    await h.request('PATCH', `${base}/columns/${colA.id}`, { key: ws.key, body: { prompt: 'a2' } });
    expect((await same()).filter((c) => c.stale)).toHaveLength(3);
    await h.db.query('UPDATE table_rows SET sort_order = 9 WHERE id = $1', [bundleRow.id]);
    expect((await same()).at(-1)!.rowId).toBe(bundleRow.id);
    await h.request('DELETE', `${base}/columns/${colB.id}`, { key: ws.key });
    expect(await same()).toHaveLength(4);
    await h.db.query('DELETE FROM cells WHERE table_id = $1', [t.id]);
    expect(await same()).toEqual([]);

    // 4.4 access: a table of another workspace is not found, whichever key asks.
    const other = await h.workspace();
    expect((await h.request('GET', `${base}/cells`, { key: other.readKey })).statusCode).toBe(404);
    expect(
      (await h.request('GET', `/v2/workspaces/${other.id}/tables/${t.id}/cells`, { key: other.readKey }))
        .statusCode,
    ).toBe(404);
  });

  it('GET cells answers only existing cells, and an empty array for a table without any', async () => {
    const t = (
      await h.request('POST', `/v2/workspaces/${ws.id}/tables`, { key: ws.key, body: { name: 'E' } })
    ).json().data;
    expect(
      (await h.request('GET', `/v2/workspaces/${ws.id}/tables/${t.id}/cells`, { key: ws.key })).json(),
    ).toEqual({ success: true, total: 0, data: [] });
  });
});
