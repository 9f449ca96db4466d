import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newId } from '../src/infra/ids.ts';
import { type Harness, startHarness, type TestWorkspace } from './helpers/harness.ts';
import {
  api,
  contractPages,
  expectLedgerInvariant,
  expireFile,
  ingestText,
  type Json,
  pair,
  seedFileIn,
} from './helpers/runs.ts';

// Issue 6 acceptance, scope: interface.md 4.3 (scope rules 1-5, preview, run list and
// polling), 4.2 (one-column run), 3.1, 3.4 (archived columns), 8 (limits, cost rule 5);
// decisions.md D2 (archived rows), D8 (expired and deleted files are skipped).
describe('run scope, skipped rows and preview (interface.md 4.3)', () => {
  let h: Harness;
  let ws: TestWorkspace;
  let a: ReturnType<typeof api>;
  /** Three ingested contracts, and a fourth to delete. */
  let files: string[];
  let doomed: string;

  beforeAll(async () => {
    h = await startHarness({}, { worker: true });
    ws = await h.workspace({ credits: 100_000 });
    a = api(h, ws);
    files = await Promise.all([3, 4, 5, 6].map((d) => ingestText(h, ws, contractPages(d), `c${d}.pdf`)));
    doomed = files.pop()!;
  });
  afterAll(() => h?.close());

  const PROMPTS = [
    { prompt: 'What is the effective date?', outputType: 'date' },
    { prompt: 'What is the total contract price?', outputType: 'number', creditRate: 10 },
    { prompt: 'Which State laws govern this agreement?', outputType: 'text_quote' },
  ];
  /** The price of one cell of each column of `grid` (single-file rows). */
  const RATES = [4, 10, 4];

  /** A fresh table of three columns by three file rows; a run creates its cells. */
  async function grid() {
    const t = await a.table('grid');
    const cols: string[] = [];
    for (const p of PROMPTS) cols.push((await a.column(t, p)).id);
    const rows: string[] = [];
    for (const f of files) rows.push(await a.fileRow(t, f));
    return { t, cols, rows };
  }

  const cross = (rows: string[], cols: string[]) =>
    rows.flatMap((r) => cols.map((c) => pair({ rowId: r, columnId: c }))).sort();
  const placesOf = (cells: Json[]) => cells.map(pair).sort();

  /** Starts a run and waits for it to finish; returns the start answer and the settled cells. */
  async function runAndSettle(t: string, body: Json = {}) {
    const started = await a.must('POST', `/tables/${t}/runs`, body);
    if (started.run) await a.waitRun(t, started.run.id);
    return { started, cells: await a.settled(t) };
  }

  it('4.3 rule 1, 8 cost rule 5: omitting both lists runs the whole table, and the preview is exactly what the run charges when every cell succeeds', async () => {
    const { t, cols, rows } = await grid();
    const preview = await a.preview(t);
    expect(preview.status).toBe(200);
    const perRow = RATES.reduce((x, y) => x + y, 0);
    expect(preview.body.data).toEqual({ cost: 3 * perRow, cells: 9, skippedRowIds: [] });
    // Preview is free, and a Read key may ask for it.
    const before = await a.balance();
    const readPreview = await a.call('GET', `/tables/${t}/runs/preview`, undefined, ws.readKey);
    expect(readPreview.status).toBe(200);
    expect(await a.balance()).toBe(before);

    const started = await a.must('POST', `/tables/${t}/runs`, {});
    expect(started).toMatchObject({ cells: 9, skippedRowIds: [] });
    expect(started.run).toMatchObject({
      tableId: t,
      status: 'IN_PROGRESS',
      triggeredBy: ws.keyId,
      totalCells: 9,
    });
    expect(started.run.id).toMatch(/^rrun_/);
    const run = await a.waitRun(t, started.run.id);
    expect(run).toMatchObject({ status: 'SUCCESS', pendingCells: 0, totalCells: 9 });
    const cells = await a.settled(t);
    expect(placesOf(cells)).toEqual(cross(rows, cols));
    expect(cells.every((c) => c.status === 'SUCCESS')).toBe(true);
    expect(before - (await a.balance())).toBe(preview.body.data.cost);
    await expectLedgerInvariant(h.db, ws.id);
  });

  it('4.3 rule 1: a start with no body at all (both lists omitted) runs the whole table', async () => {
    const { t, cols, rows } = await grid();
    // Over real HTTP as a client sends it: no body, no content-type.
    const r = await fetch(`${h.baseUrl}/v2/workspaces/${ws.id}/tables/${t}/runs`, {
      method: 'POST',
      headers: { 'x-api-key': ws.key },
    });
    const body = (await r.json()) as Json;
    expect(r.status, JSON.stringify(body)).toBe(200);
    expect(body.data).toMatchObject({ cells: 9, skippedRowIds: [] });
    await a.waitRun(t, body.data.run.id);
    expect(placesOf(await a.settled(t))).toEqual(cross(rows, cols));
    await expectLedgerInvariant(h.db, ws.id);
  });

  it('4.3 rule 1: rowIds alone run every live column of those rows only', async () => {
    const { t, cols, rows } = await grid();
    const preview = await a.preview(t, { rowIds: [rows[0]!] });
    expect(preview.body.data).toEqual({ cost: 18, cells: 3, skippedRowIds: [] });
    const { started, cells } = await runAndSettle(t, { rowIds: [rows[0]] });
    expect(started.cells).toBe(3);
    expect(started.run.totalCells).toBe(3);
    expect(placesOf(cells)).toEqual(cross([rows[0]!], cols));
    await expectLedgerInvariant(h.db, ws.id);
  });

  it('4.3 rule 1: columnIds alone run those columns over every live row only', async () => {
    const { t, cols, rows } = await grid();
    const preview = await a.preview(t, { columnIds: [cols[1]!] });
    expect(preview.body.data).toEqual({ cost: 30, cells: 3, skippedRowIds: [] });
    const { started, cells } = await runAndSettle(t, { columnIds: [cols[1]] });
    expect(started.cells).toBe(3);
    expect(placesOf(cells)).toEqual(cross(rows, [cols[1]!]));
    await expectLedgerInvariant(h.db, ws.id);
  });

  it('4.3 rule 2: rowIds and columnIds together union (every cell of those rows plus every cell of those columns), not intersect', async () => {
    const { t, cols, rows } = await grid();
    const want = [...new Set([...cross([rows[0]!], cols), ...cross(rows, [cols[1]!])])].sort();
    expect(want).toHaveLength(5);
    const scope = { rowIds: [rows[0]!], columnIds: [cols[1]!] };
    const preview = await a.preview(t, scope);
    // Row 1: 4 + 10 + 4; rows 2 and 3 of column 2: 10 each.
    expect(preview.body.data).toEqual({ cost: 38, cells: 5, skippedRowIds: [] });
    const before = await a.balance();
    const { started, cells } = await runAndSettle(t, scope);
    expect(started.cells).toBe(5);
    expect(started.run.totalCells).toBe(5);
    expect(placesOf(cells)).toEqual(want);
    expect(cells.every((c) => c.status === 'SUCCESS')).toBe(true);
    expect(before - (await a.balance())).toBe(38);
    await expectLedgerInvariant(h.db, ws.id);
  });

  it('4.3, 7: a rowId or columnId that is not in the table gives 400 on start and preview, and nothing runs', async () => {
    const { t, cols, rows } = await grid();
    const other = await grid();
    const bad: Json[] = [
      { rowIds: [newId('rrow')] },
      { columnIds: [newId('rcol')] },
      { rowIds: [rows[0], other.rows[0]] },
      { columnIds: [cols[0], other.cols[0]] },
      { rowIds: [rows[0]], columnIds: ['not-an-id'] },
    ];
    for (const body of bad) {
      const r = await a.call('POST', `/tables/${t}/runs`, body);
      expect(r.status, JSON.stringify(body)).toBe(400);
      expect(r.body).toMatchObject({ success: false, error: expect.any(String) });
      const p = await a.preview(t, body);
      expect(p.status, JSON.stringify(body)).toBe(400);
      expect(p.body.success).toBe(false);
    }
    expect(await a.must('GET', `/tables/${t}/runs`)).toEqual([]);
    expect(await a.cells(t)).toEqual([]);
  });

  it('8, 4.3: rowIds take at most 500 ids and columnIds at most 100; one more is 400', async () => {
    const { t, cols, rows } = await grid();
    const rowIds = (n: number) => Array.from({ length: n }, () => rows[0]!);
    const columnIds = (n: number) => Array.from({ length: n }, () => cols[0]!);

    for (const body of [{ rowIds: rowIds(501) }, { columnIds: columnIds(101) }]) {
      const r = await a.call('POST', `/tables/${t}/runs`, body);
      expect(r.status).toBe(400);
      expect(r.body.success).toBe(false);
      expect((await a.preview(t, body)).status).toBe(400);
    }
    expect(await a.must('GET', `/tables/${t}/runs`)).toEqual([]);

    // At the limit (the same id repeated): accepted, and each cell is targeted once.
    const p1 = await a.preview(t, { rowIds: rowIds(500) });
    expect(p1.body.data).toEqual({ cost: 18, cells: 3, skippedRowIds: [] });
    const r1 = await runAndSettle(t, { rowIds: rowIds(500) });
    expect(r1.started.cells).toBe(3);
    const p2 = await a.preview(t, { columnIds: columnIds(100) });
    expect(p2.body.data).toEqual({ cost: 12, cells: 3, skippedRowIds: [] });
    const r2 = await runAndSettle(t, { columnIds: columnIds(100) });
    expect(r2.started.cells).toBe(3);
    expect(placesOf(r2.cells)).toEqual(
      [...new Set([...cross([rows[0]!], cols), ...cross(rows, [cols[0]!])])].sort(),
    );
    await expectLedgerInvariant(h.db, ws.id);
  });

  it('4.3 rule 4, 3.4: an archived column is never targeted or charged, not even when named in columnIds', async () => {
    const { t, cols, rows } = await grid();
    const first = await runAndSettle(t);
    expect(first.started.cells).toBe(9);
    const archivedCells = first.cells.filter((c) => c.columnId === cols[2]);
    expect(archivedCells).toHaveLength(3);
    expect((await a.call('DELETE', `/tables/${t}/columns/${cols[2]}`)).status).toBe(200);

    expect((await a.preview(t)).body.data).toEqual({ cost: 42, cells: 6, skippedRowIds: [] });
    let before = await a.balance();
    const whole = await runAndSettle(t);
    expect(whole.started.cells).toBe(6);
    expect(before - (await a.balance())).toBe(42);
    // The archived column's cells are still listed, untouched.
    const after = whole.cells.filter((c) => c.columnId === cols[2]);
    expect(after).toEqual(archivedCells);

    // Named alone: nothing runnable; named with a live column: only the live one.
    expect((await a.preview(t, { columnIds: [cols[2]!] })).body.data).toEqual({
      cost: 0,
      cells: 0,
      skippedRowIds: [],
    });
    before = await a.balance();
    const alone = await a.call('POST', `/tables/${t}/runs`, { columnIds: [cols[2]] });
    expect(alone.status).toBe(200);
    expect(alone.body.data).toEqual({ run: null, cells: 0, skippedRowIds: [] });
    const withLive = await runAndSettle(t, { columnIds: [cols[2], cols[0]] });
    expect(withLive.started.cells).toBe(3);
    expect(before - (await a.balance())).toBe(12);
    expect(withLive.cells.filter((c) => c.columnId === cols[2])).toEqual(archivedCells);
    // Only the live column's cells were queued by that run.
    const runs = await a.must('GET', `/tables/${t}/runs`);
    expect(runs.map((r: Json) => r.totalCells)).toEqual([3, 6, 9]);
    expect(cross(rows, [cols[2]!])).toEqual(archivedCells.map(pair).sort());
    await expectLedgerInvariant(h.db, ws.id);
  });

  it('D2, 4.3: an archived row is never targeted, not even when named in rowIds, and is not listed as skipped', async () => {
    const { t, cols, rows } = await grid();
    expect((await a.call('DELETE', `/tables/${t}/rows/${rows[2]}`)).status).toBe(200);
    expect((await a.preview(t)).body.data).toEqual({ cost: 36, cells: 6, skippedRowIds: [] });
    const whole = await runAndSettle(t);
    expect(whole.started).toMatchObject({ cells: 6, skippedRowIds: [] });
    expect(placesOf(whole.cells)).toEqual(cross(rows.slice(0, 2), cols));

    const named = await a.call('POST', `/tables/${t}/runs`, { rowIds: [rows[2]] });
    expect(named.status).toBe(200);
    expect(named.body.data).toEqual({ run: null, cells: 0, skippedRowIds: [] });
    const both = await runAndSettle(t, { rowIds: [rows[2], rows[0]] });
    expect(both.started.cells).toBe(3);
    expect(placesOf(both.cells)).toEqual(cross(rows.slice(0, 2), cols));
    await expectLedgerInvariant(h.db, ws.id);
  });

  it('3.1, 4.3: nothing runnable in scope answers 200 with run null and cells 0, and creates no run', async () => {
    const before = await a.balance();
    // Rows but no column.
    const noColumns = await a.table('no columns');
    await a.fileRow(noColumns, files[0]!);
    let r = await a.call('POST', `/tables/${noColumns}/runs`, {});
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({ success: true, data: { run: null, cells: 0, skippedRowIds: [] } });
    // A column but no row.
    const noRows = await a.table('no rows');
    await a.column(noRows, PROMPTS[0]!);
    r = await a.call('POST', `/tables/${noRows}/runs`, {});
    expect(r.body.data).toEqual({ run: null, cells: 0, skippedRowIds: [] });
    // Every row skipped: listed, still no run.
    const allSkipped = await a.table('all skipped');
    await a.column(allSkipped, PROMPTS[0]!);
    const waiting = await a.fileRow(allSkipped, await seedFileIn(h.db, ws.id, { state: 'processing' }));
    expect((await a.preview(allSkipped)).body.data).toEqual({ cost: 0, cells: 0, skippedRowIds: [waiting] });
    r = await a.call('POST', `/tables/${allSkipped}/runs`, {});
    expect(r.status).toBe(200);
    expect(r.body.data).toEqual({ run: null, cells: 0, skippedRowIds: [waiting] });
    // Empty lists target nothing.
    const { t } = await grid();
    r = await a.call('POST', `/tables/${t}/runs`, { rowIds: [], columnIds: [] });
    expect(r.body.data).toEqual({ run: null, cells: 0, skippedRowIds: [] });

    for (const table of [noColumns, noRows, allSkipped, t]) {
      expect(await a.must('GET', `/tables/${table}/runs`)).toEqual([]);
      expect(await a.cells(table)).toEqual([]);
    }
    expect(await a.balance()).toBe(before);
  });

  it('4.3 rule 3, D8: rows whose file is processing, expired or deleted, an empty bundle and a bundle with a member still processing are skipped, listed in skippedRowIds and never charged', async () => {
    const t = await a.table('skips');
    const date = (await a.column(t, PROMPTS[0]!)).id;
    const price = (await a.column(t, { ...PROMPTS[1]!, creditRate: 4 })).id;
    const processing = await seedFileIn(h.db, ws.id, { state: 'processing', name: 'processing.pdf' });
    const expiring = await seedFileIn(h.db, ws.id, { name: 'expiring.pdf' });

    const ok = await a.fileRow(t, files[0]!);
    const proc = await a.fileRow(t, processing);
    const exp = await a.fileRow(t, expiring);
    const del = await a.fileRow(t, doomed);
    const empty = (await a.bundleRow(t, [])).rowId;
    const mixed = (await a.bundleRow(t, [files[1]!, processing])).rowId;
    const bundled = (await a.bundleRow(t, [files[1]!, files[2]!])).rowId;

    await expireFile(h.db, expiring);
    expect((await a.call('DELETE', `/files/${doomed}`)).status).toBe(200);

    const skipped = [proc, exp, del, empty, mixed];
    const preview = await a.preview(t);
    // Two runnable rows (a file, and a bundle of two: no surcharge) by two columns at rate 4.
    expect(preview.body.data).toEqual({ cost: 16, cells: 4, skippedRowIds: skipped });
    // Scoped to skipped rows only: listed, nothing runs.
    const onlySkipped = await a.preview(t, { rowIds: [proc, empty] });
    expect(onlySkipped.body.data).toEqual({ cost: 0, cells: 0, skippedRowIds: [proc, empty] });
    // A column scope lists the skipped rows it reaches too.
    expect((await a.preview(t, { columnIds: [date] })).body.data).toEqual({
      cost: 8,
      cells: 2,
      skippedRowIds: skipped,
    });

    const before = await a.balance();
    const started = await a.must('POST', `/tables/${t}/runs`, {});
    expect(started).toMatchObject({ cells: 4, skippedRowIds: skipped });
    const run = await a.waitRun(t, started.run.id);
    expect(run.status).toBe('SUCCESS');
    const cells = await a.settled(t);
    expect(placesOf(cells)).toEqual(cross([ok, bundled], [date, price]));
    expect(cells.every((c) => c.status === 'SUCCESS')).toBe(true);
    expect(before - (await a.balance())).toBe(16);
    await expectLedgerInvariant(h.db, ws.id);
  });

  it('4.2, 4.3: a column run queues only that column’s cells; unknown column 404, archived column runs nothing, Read key 403', async () => {
    const { t, cols, rows } = await grid();
    const other = await grid();
    const before = await a.balance();
    const started = await a.must('POST', `/tables/${t}/columns/${cols[1]}/run`);
    expect(started).toMatchObject({ cells: 3, skippedRowIds: [] });
    expect(started.run).toMatchObject({ status: 'IN_PROGRESS', totalCells: 3, triggeredBy: ws.keyId });
    expect((await a.waitRun(t, started.run.id)).status).toBe('SUCCESS');
    const cells = await a.settled(t);
    expect(placesOf(cells)).toEqual(cross(rows, [cols[1]!]));
    expect(before - (await a.balance())).toBe(30);

    const unknown = await a.call('POST', `/tables/${t}/columns/${newId('rcol')}/run`);
    expect(unknown.status).toBe(404);
    expect(unknown.body.success).toBe(false);
    expect((await a.call('POST', `/tables/${t}/columns/${other.cols[0]}/run`)).status).toBe(404);
    const read = await h.request('POST', `/v2/workspaces/${ws.id}/tables/${t}/columns/${cols[0]}/run`, {
      key: ws.readKey,
    });
    expect(read.statusCode).toBe(403);

    expect((await a.call('DELETE', `/tables/${t}/columns/${cols[0]}`)).status).toBe(200);
    const archived = await a.call('POST', `/tables/${t}/columns/${cols[0]}/run`);
    expect(archived.status).toBe(200);
    expect(archived.body.data).toEqual({ run: null, cells: 0, skippedRowIds: [] });
    expect(await a.must('GET', `/tables/${t}/runs`)).toHaveLength(1);
    expect(await a.must('GET', `/tables/${other.t}/runs`)).toEqual([]);
    await expectLedgerInvariant(h.db, ws.id);
  });

  it('4.3: the run list is newest first; a run answers 404 for an unknown id or another table’s run; Read may poll, not start', async () => {
    const { t, cols } = await grid();
    const other = await grid();
    const ids: string[] = [];
    for (const c of cols) {
      const s = await a.must('POST', `/tables/${t}/columns/${c}/run`);
      await a.waitRun(t, s.run.id);
      ids.push(s.run.id);
    }
    const list = await a.call('GET', `/tables/${t}/runs`, undefined, ws.readKey);
    expect(list.status).toBe(200);
    expect(list.body.data.map((r: Json) => r.id)).toEqual([...ids].reverse());
    expect(list.body.total).toBe(3);
    const created = list.body.data.map((r: Json) => r.createdAt);
    expect([...created].sort((x, y) => y - x)).toEqual(created);
    for (const r of list.body.data) {
      expect(r).toMatchObject({ tableId: t, status: 'SUCCESS', pendingCells: 0, totalCells: 3 });
      expect(r.finishedAt).toBeGreaterThanOrEqual(r.startedAt);
    }

    const one = await a.call('GET', `/tables/${t}/runs/${ids[0]}`, undefined, ws.readKey);
    expect(one.status).toBe(200);
    expect(one.body.data.id).toBe(ids[0]);
    const missing = await a.call('GET', `/tables/${t}/runs/${newId('rrun')}`);
    expect(missing.status).toBe(404);
    expect(missing.body.success).toBe(false);
    expect((await a.call('GET', `/tables/${other.t}/runs/${ids[0]}`)).status).toBe(404);
    expect((await a.call('POST', `/tables/${t}/runs`, {}, ws.readKey)).status).toBe(403);

    // Another workspace's key reaches none of it (404, as for an absent resource).
    const stranger = await h.workspace({ credits: 100 });
    const base = `/v2/workspaces/${stranger.id}/tables/${t}/runs`;
    for (const [method, url] of [
      ['GET', base],
      ['GET', `${base}/${ids[0]}`],
      ['GET', `${base}/preview`],
      ['POST', base],
      ['POST', `${base}/${ids[0]}/cancel`],
      ['POST', `${base}/cancel`],
    ] as const) {
      const r = await h.request(method, url, { key: stranger.key, body: method === 'POST' ? {} : undefined });
      expect(r.statusCode, `${method} ${url}`).toBe(404);
    }
  });
});
