import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Harness, startHarness, type TestWorkspace } from './helpers/harness.ts';
import {
  api,
  contractPages,
  expectLedgerInvariant,
  holdsByCell,
  ingestText,
  type Json,
  pair,
} from './helpers/runs.ts';

// Issue 6 acceptance, cells after real runs: interface.md 2.4 (cell), 2.5 (events), 2.6
// (facts), 3.2 (override transitions, staleness and version bumps), 4.3 rule 3 (overridden
// cells skipped, not listed), 4.4; decisions.md D3 (a run re-creates its cells), D4.
describe('cells after real runs: overrides, events, facts, staleness, takeover (interface.md 3.2, 4.4)', () => {
  let h: Harness;
  let ws: TestWorkspace;
  let a: ReturnType<typeof api>;
  let files: string[];

  beforeAll(async () => {
    h = await startHarness({}, { worker: true });
    ws = await h.workspace({ credits: 100_000 });
    a = api(h, ws);
    files = await Promise.all([3, 4, 5, 6].map((d) => ingestText(h, ws, contractPages(d), `c${d}.pdf`)));
  });
  afterAll(() => h?.close());

  const DATE = { prompt: 'What is the effective date?', outputType: 'date' };
  const PRICE = { prompt: 'What is the total contract price?', outputType: 'number' };

  async function runAll(t: string, body: Json = {}) {
    const started = await a.must('POST', `/tables/${t}/runs`, body);
    if (started.run) await a.waitRun(t, started.run.id);
    return { started, cells: await a.settled(t) };
  }
  const find = (cells: Json[], rowId: string, columnId: string) =>
    cells.find((c) => c.rowId === rowId && c.columnId === columnId)!;
  const cellUrl = (t: string, cellId: string) => `/tables/${t}/cells/${cellId}`;
  const capturedCount = async (cellId: string) =>
    ((await holdsByCell(h.db, ws.id)).get(cellId) ?? []).filter((x) => x.state === 'captured').length;

  it('4.3 rule 3, 3.2, 2.5, 4.4: an overridden cell is not re-run or charged and its row is not listed as skipped while the row’s other cells run; override_set carries the new and prior values and the key id; after clear (override_cleared) the next run re-runs and charges it', async () => {
    const t = await a.table('overrides');
    const date = (await a.column(t, DATE)).id;
    const price = (await a.column(t, PRICE)).id;
    const row = await a.fileRow(t, files[0]!);
    const first = await runAll(t);
    expect(first.started.cells).toBe(2);
    const target = find(first.cells, row, date);
    expect(target).toMatchObject({ status: 'SUCCESS', value: { type: 'date', value: '2021-03-03' } });

    const override = { type: 'date', value: '2020-12-31' };
    const put = await a.call('PUT', `${cellUrl(t, target.id)}/override`, { value: override });
    expect(put.status).toBe(200);
    expect(put.body.data).toMatchObject({
      id: target.id,
      status: 'SUCCESS',
      humanOverride: override,
      value: target.value,
    });
    const overridden = put.body.data;
    let events = await a.must('GET', `${cellUrl(t, target.id)}/events`);
    expect(events).toHaveLength(1);
    expect(events[0]).toMatchObject({ cellId: target.id, type: 'override_set', actorId: ws.keyId });
    const setData = JSON.parse(events[0].data);
    expect(setData.value).toEqual(override);
    expect(setData.priorValue).toEqual(target.value);

    // The whole table: only the other cell of the row runs; the row is not "skipped".
    expect((await a.preview(t)).body.data).toEqual({ cost: 4, cells: 1, skippedRowIds: [] });
    let before = await a.balance();
    const second = await runAll(t);
    expect(second.started).toMatchObject({ cells: 1, skippedRowIds: [] });
    expect(second.started.run.totalCells).toBe(1);
    expect(find(second.cells, row, date)).toEqual(overridden);
    expect(find(second.cells, row, price).updatedAt).toBeGreaterThan(find(first.cells, row, price).updatedAt);
    expect(before - (await a.balance())).toBe(4);
    expect(await capturedCount(target.id)).toBe(1);
    expect(await capturedCount(find(first.cells, row, price).id)).toBe(2);
    // Named explicitly, by row or by column, it is still skipped silently.
    const named = await a.call('POST', `/tables/${t}/runs`, { rowIds: [row], columnIds: [date] });
    expect(named.body.data).toMatchObject({ cells: 1, skippedRowIds: [] });
    await a.waitRun(t, named.body.data.run.id);
    const onlyIt = await a.call('POST', `/tables/${t}/columns/${date}/run`);
    expect(onlyIt.body.data).toEqual({ run: null, cells: 0, skippedRowIds: [] });
    expect(find(await a.settled(t), row, date)).toEqual(overridden);
    expect(await capturedCount(target.id)).toBe(1);
    await expectLedgerInvariant(h.db, ws.id);

    // Clear: logged with the key id; the cell is re-armed, run and charged by the next whole-table run.
    const cleared = await a.call('DELETE', `${cellUrl(t, target.id)}/override`);
    expect(cleared.status).toBe(200);
    expect(cleared.body.data).toMatchObject({ humanOverride: null, value: target.value });
    events = await a.must('GET', `${cellUrl(t, target.id)}/events`);
    expect(events.map((e: Json) => [e.type, e.actorId])).toEqual([
      ['override_set', ws.keyId],
      ['override_cleared', ws.keyId],
    ]);
    expect((await a.preview(t)).body.data).toEqual({ cost: 8, cells: 2, skippedRowIds: [] });
    before = await a.balance();
    const third = await runAll(t);
    expect(third.started.cells).toBe(2);
    const rerun = find(third.cells, row, date);
    expect(rerun).toMatchObject({
      id: target.id,
      status: 'SUCCESS',
      humanOverride: null,
      value: { type: 'date', value: '2021-03-03' },
    });
    expect(rerun.updatedAt).toBeGreaterThan(overridden.updatedAt);
    expect(await capturedCount(target.id)).toBe(2);
    expect(before - (await a.balance())).toBe(8);
    await expectLedgerInvariant(h.db, ws.id);
  });

  it('2.6, 4.4: after a real run a single-file row has one fact equal to the cell’s answer; a three-file bundle row has one fact per file; fact citations name datasetId', async () => {
    const t = await a.table('facts');
    const date = (await a.column(t, DATE)).id;
    const single = await a.fileRow(t, files[0]!);
    const members = files.slice(1, 4);
    const { rowId: bundled } = await a.bundleRow(t, members);
    const { cells } = await runAll(t);
    expect(cells.map((c) => c.status)).toEqual(['SUCCESS', 'SUCCESS']);

    const one = find(cells, single, date);
    const facts = await a.must('GET', `${cellUrl(t, one.id)}/facts`);
    expect(facts).toHaveLength(1);
    const fact = facts[0];
    expect(fact.id).toMatch(/^rfac_/);
    expect(fact).toMatchObject({ cellId: one.id, fileId: files[0], status: 'SUCCESS' });
    expect(JSON.parse(fact.value)).toEqual(one.value);
    const citations = JSON.parse(fact.citations) as Json[];
    expect(citations.length).toBeGreaterThan(0);
    expect(citations).toHaveLength(one.citations.length);
    citations.forEach((c, i) => {
      expect(c).not.toHaveProperty('fileId');
      expect(c.datasetId).toBe(files[0]);
      expect(c.page).toBe(one.citations[i].page);
      expect(c.quote).toBe(one.citations[i].quote);
    });
    // Inside the cell payload the id is fileId.
    for (const c of one.citations) expect(c.fileId).toBe(files[0]);

    const many = find(cells, bundled, date);
    const bundleFacts = await a.must('GET', `${cellUrl(t, many.id)}/facts`);
    expect(bundleFacts).toHaveLength(3);
    expect(bundleFacts.map((f: Json) => f.fileId).sort()).toEqual([...members].sort());
    for (const f of bundleFacts) {
      expect(f.cellId).toBe(many.id);
      const cs = JSON.parse(f.citations) as Json[];
      for (const c of cs) {
        expect(c).not.toHaveProperty('fileId');
        expect(c.datasetId).toBe(f.fileId);
      }
    }
    // Each member states its own date; the facts keep them apart.
    expect(bundleFacts.map((f: Json) => JSON.parse(f.value)?.value).sort()).toEqual([
      '2021-03-04',
      '2021-03-05',
      '2021-03-06',
    ]);
  });

  it('3.2: a prompt change makes the column’s cells stale until re-run at the new version; adding a file to a bundle makes that row’s cells stale until re-run at the new documentsVersion', async () => {
    const t = await a.table('stale');
    const date = await a.column(t, DATE);
    const price = (await a.column(t, PRICE)).id;
    const single = await a.fileRow(t, files[0]!);
    const { rowId: bundled, bundleId } = await a.bundleRow(t, files.slice(1, 3));
    const docsVersion = async () => (await a.must('GET', `/bundles/${bundleId}`)).bundle.documentsVersion;
    const v1 = await docsVersion();

    let { cells } = await runAll(t);
    expect(cells).toHaveLength(4);
    for (const c of cells) {
      expect(c).toMatchObject({ status: 'SUCCESS', stale: false, columnVersion: 1 });
      expect(c.bundleVersion).toBe(c.rowId === bundled ? v1 : 1);
    }

    // Same prompt: no bump. A different prompt: version 2, the column's cells stale.
    const same = await a.must('PATCH', `/tables/${t}/columns/${date.id}`, { prompt: DATE.prompt });
    expect(same.version).toBe(1);
    const patched = await a.must('PATCH', `/tables/${t}/columns/${date.id}`, {
      prompt: 'When does this agreement take effect?',
    });
    expect(patched.version).toBe(2);
    cells = await a.cells(t);
    for (const c of cells) {
      expect(c.stale).toBe(c.columnId === date.id);
      expect(c.columnVersion).toBe(1);
    }
    // Nothing re-runs by itself.
    expect(await a.must('GET', `/tables/${t}/runs`)).toHaveLength(1);

    ({ cells } = await a.must('POST', `/tables/${t}/columns/${date.id}/run`).then(async (s) => {
      await a.waitRun(t, s.run.id);
      return { cells: await a.settled(t) };
    }));
    for (const c of cells) {
      expect(c.stale).toBe(false);
      expect(c.columnVersion).toBe(c.columnId === date.id ? 2 : 1);
      expect(c.status).toBe('SUCCESS');
    }

    // A third member: documentsVersion +1, the bundle row's cells stale, the file row's not.
    await a.must('POST', `/bundles/${bundleId}/files`, { fileIds: [files[3]] });
    const v2 = await docsVersion();
    expect(v2).toBe(v1 + 1);
    cells = await a.cells(t);
    for (const c of cells) {
      expect(c.stale).toBe(c.rowId === bundled);
      expect(c.bundleVersion).toBe(c.rowId === bundled ? v1 : 1);
    }
    const before = await a.balance();
    ({ cells } = await runAll(t, { rowIds: [bundled] }));
    for (const c of cells) {
      expect(c).toMatchObject({ status: 'SUCCESS', stale: false });
      expect(c.bundleVersion).toBe(c.rowId === bundled ? v2 : 1);
    }
    // Three members cost no surcharge on a non-compositional column: 2 cells at 4.
    expect(before - (await a.balance())).toBe(8);
    expect(find(cells, single, price).columnVersion).toBe(1);
    await expectLedgerInvariant(h.db, ws.id);
  });

  it('D3, D4, 3.1: two runs over the same cells started back to back: each run ends (the first is not left IN_PROGRESS), every cell ends SUCCESS once under the second, and no (cell, run) is charged twice', async () => {
    const t = await a.table('back to back');
    const cols = [(await a.column(t, DATE)).id, (await a.column(t, PRICE)).id];
    const rows: string[] = [];
    for (const f of files.slice(0, 3)) rows.push(await a.fileRow(t, f));
    const before = await a.balance();
    const holdsBefore = await holdsByCell(h.db, ws.id);
    expect(holdsBefore.size).toBeGreaterThan(0);

    const first = await a.must('POST', `/tables/${t}/runs`, {});
    const second = await a.must('POST', `/tables/${t}/runs`, {});
    expect(first.cells).toBe(6);
    expect(second.cells).toBe(6);
    const run1 = await a.waitRun(t, first.run.id);
    const run2 = await a.waitRun(t, second.run.id);
    expect(run1.pendingCells).toBe(0);
    expect(['SUCCESS', 'ERROR']).toContain(run1.status);
    expect(run1.finishedAt).toBeGreaterThan(0);
    expect(run2).toMatchObject({ status: 'SUCCESS', pendingCells: 0 });

    const cells = await a.settled(t);
    expect(cells.map(pair).sort()).toEqual(rows.flatMap((r) => cols.map((c) => `${r}|${c}`)).sort());
    expect(cells.every((c) => c.status === 'SUCCESS')).toBe(true);
    const holds = await holdsByCell(h.db, ws.id);
    let captured = 0;
    for (const c of cells) {
      const mine = holds.get(c.id) ?? [];
      expect(mine.every((x) => x.state !== 'held')).toBe(true);
      const byRun2 = mine.filter((x) => x.run_id === second.run.id && x.state === 'captured');
      const byRun1 = mine.filter((x) => x.run_id === first.run.id && x.state === 'captured');
      // The second run charges each cell once; the first at most once, for a cell it had
      // finished before the second run took it over.
      expect(byRun2).toHaveLength(1);
      expect(byRun1.length).toBeLessThanOrEqual(1);
      captured += byRun1.length + byRun2.length;
    }
    expect(before - (await a.balance())).toBe(4 * captured);
    await expectLedgerInvariant(h.db, ws.id);
  });
});
