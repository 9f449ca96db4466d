import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { listLedger } from '../src/infra/repos/ledger.ts';
import { type Harness, startHarness, type TestWorkspace } from './helpers/harness.ts';
import {
  api,
  contractPages,
  expectLedgerInvariant,
  FakeModel,
  type FakeModelMode,
  holdsByCell,
  ingestText,
  type Json,
  until,
} from './helpers/runs.ts';

// Issue 6 acceptance, runs against a model server we control (ENGINE=openai): interface.md
// 3.1 (cancel, cancel-all, 409), 3.2 (a failed cell is not charged; a cell mid-extraction
// finishes and is charged), 4.3 rules 6-7, section 5 (Read keys cannot cancel);
// decisions.md D3 (a canceled cell is NOT_STARTED with value null), D4 (holds released).
describe('cancel, model failures and takeover, with a model server (interface.md 3.1, 4.3; D3, D4)', () => {
  const model = new FakeModel();
  let h: Harness;
  let ws: TestWorkspace;
  let a: ReturnType<typeof api>;
  let fileId: string;

  beforeAll(async () => {
    await model.start();
    // One batch at a time: the batch in progress waits on the model, the rest stays queued.
    h = await startHarness(model.env({ RUN_CONCURRENCY: '1', OPENAI_CONCURRENCY: '1' }), { worker: true });
    ws = await h.workspace({ credits: 10_000 });
    a = api(h, ws);
    fileId = await ingestText(h, ws, contractPages(3));
  });
  afterAll(async () => {
    model.release();
    await h?.close();
    await model.stop();
  });

  let tables = 0;
  /**
   * A table of `n` text columns at rate 4 over one file row. The model's `mode` applies to
   * this table's prompts only, so a late request for a cell an earlier test gave up is
   * answered and never holds the worker.
   */
  async function table(n: number, mode: FakeModelMode) {
    const tag = `T${++tables}`;
    const t = await a.table(`model ${tag}`);
    const cols: string[] = [];
    for (let i = 0; i < n; i++) {
      cols.push(
        (await a.column(t, { prompt: `Who are the parties (${tag}.${i})?`, name: `parties ${i}` })).id,
      );
    }
    const row = await a.fileRow(t, fileId);
    model.reset(mode, `(${tag}.`);
    return { t, cols, row };
  }

  const byStatus = (cells: Json[], status: string) => cells.filter((c) => c.status === status);
  /** Waits until the model holds `n` requests unanswered. */
  const modelHolds = (n: number) =>
    until(`${n} requests at the model`, async () => (model.held.length >= n ? true : undefined));

  it('3.2, D4: a model answering 500 ends every cell ERROR with a statusText; nothing is charged and each cell’s hold is released once', async () => {
    const { t } = await table(2, '500');
    const before = await a.balance();
    const started = await a.must('POST', `/tables/${t}/runs`, {});
    expect(started.cells).toBe(2);
    const run = await a.waitRun(t, started.run.id);
    // Every cell that ran ended ERROR: the run is ERROR (D3).
    expect(run).toMatchObject({ status: 'ERROR', pendingCells: 0 });
    const cells = await a.settled(t);
    expect(cells).toHaveLength(2);
    for (const c of cells) {
      expect(c).toMatchObject({ status: 'ERROR', blockReason: null, value: null, confidence: null });
      expect(c.statusText).toMatch(/\S/);
    }
    expect(model.received).toBe(2);
    expect(await a.balance()).toBe(before);

    const holds = await holdsByCell(h.db, ws.id);
    const ledger = await listLedger(h.db, ws.id);
    for (const c of cells) {
      const mine = holds.get(c.id) ?? [];
      expect(mine.map((x) => [x.state, x.amount])).toEqual([['released', 4]]);
      const rows = ledger.filter((l) => l.ref_id === mine[0]!.id);
      expect(rows.map((l) => [l.reason, l.amount])).toEqual([
        ['cell_hold', -4],
        ['cell_release', 4],
      ]);
    }
    await expectLedgerInvariant(h.db, ws.id);
  });

  it('3.1, D3, 5: cancel while a cell is IN_PROGRESS: the run is CANCELED at once (pendingCells 0, finishedAt set), queued cells go back to NOT_STARTED with value null, the cell mid-extraction finishes SUCCESS and is charged exactly once; cancel again is 409; Read keys get 403', async () => {
    // One cell is sent to the model at a time: it is started, the rest stay queued.
    const { t } = await table(10, 'hang');
    const before = await a.balance();
    const started = await a.must('POST', `/tables/${t}/runs`, {});
    expect(started.cells).toBe(10);
    const runId = started.run.id as string;
    await modelHolds(1);
    const during = await a.cells(t);
    const inFlight = byStatus(during, 'IN_PROGRESS').map((c) => c.id);
    const queued = byStatus(during, 'IN_QUEUE').map((c) => c.id);
    expect(inFlight.length).toBeGreaterThanOrEqual(1);
    expect(queued.length).toBeGreaterThanOrEqual(1);
    expect(inFlight.length + queued.length).toBe(10);
    expect(await a.must('GET', `/tables/${t}/runs/${runId}`)).toMatchObject({
      status: 'IN_PROGRESS',
      pendingCells: 10,
      finishedAt: null,
    });

    const read = await a.call('POST', `/tables/${t}/runs/${runId}/cancel`, undefined, ws.readKey);
    expect(read.status).toBe(403);
    const readAll = await a.call('POST', `/tables/${t}/runs/cancel`, undefined, ws.readKey);
    expect(readAll.status).toBe(403);
    expect((await a.must('GET', `/tables/${t}/runs/${runId}`)).status).toBe('IN_PROGRESS');

    const canceled = await a.call('POST', `/tables/${t}/runs/${runId}/cancel`);
    expect(canceled.status).toBe(200);
    expect(canceled.body.data).toMatchObject({ id: runId, status: 'CANCELED', pendingCells: 0 });
    const finishedAt = canceled.body.data.finishedAt;
    expect(finishedAt).toBeGreaterThan(0);

    const after = await a.cells(t);
    for (const c of after.filter((x) => queued.includes(x.id))) {
      expect(c).toMatchObject({
        status: 'NOT_STARTED',
        value: null,
        statusText: null,
        blockReason: null,
        citations: [],
        confidence: null,
      });
    }
    expect(
      byStatus(after, 'IN_PROGRESS')
        .map((c) => c.id)
        .sort(),
    ).toEqual([...inFlight].sort());
    expect(await a.must('GET', `/tables/${t}/runs/${runId}`)).toMatchObject({
      status: 'CANCELED',
      pendingCells: 0,
      finishedAt,
    });
    const again = await a.call('POST', `/tables/${t}/runs/${runId}/cancel`);
    expect(again.status).toBe(409);
    expect(again.body).toMatchObject({ success: false, error: expect.any(String) });

    model.release();
    const settled = await a.settled(t);
    for (const c of settled) {
      if (inFlight.includes(c.id)) {
        expect(c.status).toBe('SUCCESS');
        expect(c.value).toEqual({ type: 'text_quote', value: 'Acme Corp' });
      } else {
        expect(c).toMatchObject({ status: 'NOT_STARTED', value: null });
      }
    }
    const holds = await holdsByCell(h.db, ws.id);
    for (const c of settled) {
      const mine = (holds.get(c.id) ?? []).map((x) => x.state);
      expect(mine).toEqual(inFlight.includes(c.id) ? ['captured'] : []);
    }
    expect(before - (await a.balance())).toBe(4 * inFlight.length);
    // The late answers do not reopen the run.
    expect(await a.must('GET', `/tables/${t}/runs/${runId}`)).toMatchObject({
      status: 'CANCELED',
      pendingCells: 0,
      finishedAt,
    });
    expect((await a.call('POST', `/tables/${t}/runs/${runId}/cancel`)).status).toBe(409);
    await expectLedgerInvariant(h.db, ws.id);
  });

  it('4.3 rule 6: cancel-all with nothing in flight answers canceled 0 and no runs, not an error', async () => {
    const { t } = await table(1, 'answer');
    let r = await a.call('POST', `/tables/${t}/runs/cancel`);
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({ success: true, data: { canceled: 0, runs: [] } });
    // Finished runs are not in flight either.
    const started = await a.must('POST', `/tables/${t}/runs`, {});
    expect((await a.waitRun(t, started.run.id)).status).toBe('SUCCESS');
    r = await a.call('POST', `/tables/${t}/runs/cancel`);
    expect(r.body.data).toEqual({ canceled: 0, runs: [] });
    expect((await a.must('GET', `/tables/${t}/runs/${started.run.id}`)).status).toBe('SUCCESS');
    await expectLedgerInvariant(h.db, ws.id);
  });

  it('4.3 rules 6-7, 3.1: cancel-all with two runs in flight cancels both and lists them newest first', async () => {
    const { t, cols } = await table(2, 'hang');
    const before = await a.balance();
    const first = await a.must('POST', `/tables/${t}/runs`, { columnIds: [cols[0]] });
    await until('a later millisecond', async () => (Date.now() > first.run.createdAt ? true : undefined));
    const second = await a.must('POST', `/tables/${t}/runs`, { columnIds: [cols[1]] });
    expect(second.run.createdAt).toBeGreaterThan(first.run.createdAt);
    await modelHolds(1);

    const r = await a.call('POST', `/tables/${t}/runs/cancel`);
    expect(r.status).toBe(200);
    expect(r.body.data.canceled).toBe(2);
    expect(r.body.data.runs.map((x: Json) => x.id)).toEqual([second.run.id, first.run.id]);
    for (const run of r.body.data.runs) {
      expect(run).toMatchObject({ status: 'CANCELED', pendingCells: 0 });
      expect(run.finishedAt).toBeGreaterThan(0);
    }
    const list = await a.must('GET', `/tables/${t}/runs`);
    expect(list.map((x: Json) => [x.id, x.status])).toEqual([
      [second.run.id, 'CANCELED'],
      [first.run.id, 'CANCELED'],
    ]);
    expect((await a.call('POST', `/tables/${t}/runs/cancel`)).body.data).toEqual({ canceled: 0, runs: [] });

    model.release();
    const settled = await a.settled(t);
    // A cell already started finishes and is charged; one still queued went back to blank.
    const holds = await holdsByCell(h.db, ws.id);
    let charged = 0;
    for (const c of settled) {
      const states = (holds.get(c.id) ?? []).map((x) => x.state);
      if (c.status === 'SUCCESS') {
        expect(states).toEqual(['captured']);
        charged += 4;
      } else {
        expect(c).toMatchObject({ status: 'NOT_STARTED', value: null });
        expect(states).toEqual([]);
      }
    }
    expect(charged).toBeGreaterThanOrEqual(4);
    expect(before - (await a.balance())).toBe(charged);
    await expectLedgerInvariant(h.db, ws.id);
  });

  it('3.1, 4.3 rule 6, 7: a cancel racing a start over the same queued cells never fails (no 500); every cell ends once and the ledger holds', async () => {
    const { t } = await table(40, 'hang');
    const answers: number[] = [];
    for (let i = 0; i < 50; i++) {
      const first = await a.must('POST', `/tables/${t}/runs`, {});
      const cancel =
        i % 2 === 0
          ? a.call('POST', `/tables/${t}/runs/${first.run.id}/cancel`)
          : a.call('POST', `/tables/${t}/runs/cancel`);
      const [started, canceled] = await Promise.all([a.call('POST', `/tables/${t}/runs`, {}), cancel]);
      expect(started.status, started.raw).toBe(200);
      // The start may have taken every cell over (the first run is then finished: 409).
      expect([200, 409], canceled.raw).toContain(canceled.status);
      answers.push(canceled.status);
      await a.must('POST', `/tables/${t}/runs/cancel`);
    }
    model.release();
    await a.settled(t);
    for (const run of await a.must('GET', `/tables/${t}/runs`)) {
      expect(['SUCCESS', 'ERROR', 'CANCELED']).toContain(run.status);
      expect(run.pendingCells).toBe(0);
    }
    expect((await holdsByCell(h.db, ws.id)).size).toBeGreaterThan(0);
    await expectLedgerInvariant(h.db, ws.id);
  });

  it('D3, D4, 3.1: a run started over cells another run has in progress takes them over: the first run finishes, its holds are released, its late answers are dropped, and each cell is charged once', async () => {
    const { t } = await table(2, 'hang');
    const before = await a.balance();
    const first = await a.must('POST', `/tables/${t}/runs`, {});
    await modelHolds(1);
    const during = await a.cells(t);
    // One call in flight (OPENAI_CONCURRENCY=1, one cell claimed per call), the other cell queued.
    const inFlight = byStatus(during, 'IN_PROGRESS').map((c) => c.id);
    expect(inFlight).toHaveLength(1);

    const second = await a.must('POST', `/tables/${t}/runs`, {});
    expect(second.cells).toBe(2);
    // The first run has nothing left pending: it is finished, not stuck.
    const firstRun = await a.waitRun(t, first.run.id, 10_000);
    expect(firstRun).toMatchObject({ pendingCells: 0 });
    expect(['SUCCESS', 'ERROR']).toContain(firstRun.status);
    expect(firstRun.finishedAt).toBeGreaterThan(0);
    // Its holds went back at once.
    expect(await a.balance()).toBe(before);

    model.release();
    expect((await a.waitRun(t, second.run.id)).status).toBe('SUCCESS');
    const cells = await a.settled(t);
    expect(cells.map((c) => c.status)).toEqual(['SUCCESS', 'SUCCESS']);
    const holds = await holdsByCell(h.db, ws.id);
    for (const c of cells) {
      const mine = holds.get(c.id) ?? [];
      expect(mine.map((x) => [x.run_id, x.state])).toEqual(
        inFlight.includes(c.id)
          ? [
              [first.run.id, 'released'],
              [second.run.id, 'captured'],
            ]
          : [[second.run.id, 'captured']],
      );
    }
    expect(before - (await a.balance())).toBe(8);
    await expectLedgerInvariant(h.db, ws.id);
  });
});
