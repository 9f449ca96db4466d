import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { listHolds } from '../src/infra/repos/holds.ts';
import { type Harness, startHarness, type TestWorkspace } from './helpers/harness.ts';
import {
  api,
  contractPages,
  expectLedgerInvariant,
  holdsByCell,
  ingestText,
  type Json,
} from './helpers/runs.ts';

// Issue 6 acceptance, credits: interface.md section 8 (cost rules 1-3, 5), 3.2 (charged
// per success), 4.3 refusals and section 7 (402 bodies); decisions.md D3 (surcharges,
// blockReason values, run final status) and D4 (checked when a worker starts a cell).
describe('run charges, 402 refusals and blocked cells (interface.md 8, 4.3; D3, D4)', () => {
  let h: Harness;
  let ws: TestWorkspace;
  let a: ReturnType<typeof api>;
  /** Twelve one-page contracts; a file can be in many bundles, so bundles reuse them. */
  let files: string[];

  beforeAll(async () => {
    h = await startHarness({}, { worker: true });
    ws = await h.workspace({ credits: 100_000 });
    a = api(h, ws);
    files = await Promise.all(
      Array.from({ length: 12 }, (_, i) => ingestText(h, ws, contractPages(i + 1), `c${i + 1}.pdf`)),
    );
  });
  afterAll(() => h?.close());

  const DATE = { prompt: 'What is the effective date?', outputType: 'date' };

  /** Checks every SUCCESS cell's captured hold is its price, and nothing else was captured. */
  async function expectCaptured(cells: Json[], priceOf: (c: Json) => number) {
    const holds = await holdsByCell(h.db, ws.id);
    for (const c of cells) {
      const captured = (holds.get(c.id) ?? []).filter((x) => x.state === 'captured');
      if (c.status === 'SUCCESS') {
        expect(captured.map((x) => x.amount)).toEqual([priceOf(c)]);
      } else {
        expect(captured).toEqual([]);
      }
      expect((holds.get(c.id) ?? []).filter((x) => x.state === 'held')).toEqual([]);
    }
  }

  it('8 cost rules 1-3, D3: single-file rows cost creditRate (4 and 17); bundles of 2, 4, 5, 6 and 12 add 4 per member beyond the third (non-compositional) or 4 per six members (compositional); the balance moves by exactly the captured prices of SUCCESS cells', async () => {
    const t = await a.table('prices');
    const cols = {
      n4: (await a.column(t, { ...DATE, name: 'n4' })).id,
      c4: (await a.column(t, { ...DATE, name: 'c4', isCompositional: true })).id,
      n17: (await a.column(t, { ...DATE, name: 'n17', creditRate: 17 })).id,
      c17: (await a.column(t, { ...DATE, name: 'c17', creditRate: 17, isCompositional: true })).id,
    } as const;
    const single = await a.fileRow(t, files[0]!);
    const bundles = new Map<string, number>();
    for (const n of [2, 4, 5, 6, 12]) bundles.set((await a.bundleRow(t, files.slice(0, n))).rowId, n);

    // The spec's own figures (section 8, D3), written out rather than computed.
    const surcharge: Record<string, Record<number, number>> = {
      n: { 2: 0, 4: 4, 5: 8, 6: 12, 12: 36 },
      c: { 2: 0, 4: 0, 5: 0, 6: 4, 12: 8 },
    };
    // Bundles of 2, 4, 5, 6 and 12 at rate 4, as the issue states them.
    expect([2, 4, 5, 6, 12].map((n) => 4 + surcharge.n![n]!)).toEqual([4, 8, 12, 16, 40]);
    expect([2, 4, 5, 6, 12].map((n) => 4 + surcharge.c![n]!)).toEqual([4, 4, 4, 8, 12]);
    const rateOf: Record<string, [number, 'n' | 'c']> = {
      [cols.n4]: [4, 'n'],
      [cols.c4]: [4, 'c'],
      [cols.n17]: [17, 'n'],
      [cols.c17]: [17, 'c'],
    };
    const priceOf = (c: Json) => {
      const [rate, kind] = rateOf[c.columnId]!;
      const members = bundles.get(c.rowId);
      return members === undefined ? rate : rate + surcharge[kind]![members]!;
    };
    // 4+4+17+17 on the file row; per column over the bundles: n4 80, c4 32, n17 145, c17 97.
    const expected = 42 + 80 + 32 + 145 + 97;
    expect(expected).toBe(396);

    const preview = await a.preview(t);
    expect(preview.body.data).toEqual({ cost: expected, cells: 24, skippedRowIds: [] });
    const before = await a.wallet();
    const started = await a.must('POST', `/tables/${t}/runs`, {});
    expect(started.cells).toBe(24);
    const run = await a.waitRun(t, started.run.id);
    expect(run.status).toBe('SUCCESS');
    const cells = await a.settled(t);
    expect(cells).toHaveLength(24);
    expect(cells.filter((c) => c.status !== 'SUCCESS')).toEqual([]);
    expect(cells.find((c) => c.rowId === single && c.columnId === cols.n4)!.value).toEqual({
      type: 'date',
      value: '2021-03-01',
    });
    await expectCaptured(cells, priceOf);
    const success = cells.filter((c) => c.status === 'SUCCESS').reduce((s, c) => s + priceOf(c), 0);
    expect(success).toBe(expected);
    const after = await a.wallet();
    expect(before.balance - after.balance).toBe(success);
    expect(after.monthSpend - before.monthSpend).toBe(success);
    await expectLedgerInvariant(h.db, ws.id);

    // A column run prices the same way.
    const again = await a.must('POST', `/tables/${t}/columns/${cols.n4}/run`);
    expect(again.cells).toBe(6);
    await a.waitRun(t, again.run.id);
    await a.settled(t);
    expect(after.balance - (await a.balance())).toBe(84);
    await expectLedgerInvariant(h.db, ws.id);
  });

  /** A table of three date columns at rate 4 over one file row: 3 cells, estimate 12. */
  async function threeCells() {
    const t = await a.table('budget');
    for (let i = 0; i < 3; i++) await a.column(t, { ...DATE, name: `date ${i}` });
    await a.fileRow(t, files[0]!);
    return t;
  }

  it('4.3 refusals, 7, D4: month spend already at the cap answers 402 with cap, cost and balance before any work; with the cap reached and a zero balance the cap wins', async () => {
    const t = await threeCells();
    const w = await a.wallet();
    expect(w.monthSpend).toBeGreaterThan(0); // ingest pages and earlier cells count
    await a.setBudget({ spendCap: w.monthSpend });
    const r = await a.call('POST', `/tables/${t}/runs`, {});
    expect(r.status).toBe(402);
    expect(r.body).toMatchObject({
      success: false,
      error: expect.any(String),
      cost: 12,
      balance: w.balance,
      cap: w.monthSpend,
    });
    // The one-column run refuses alike.
    const col = (await a.must('GET', `/tables/${t}/columns`))[0].id;
    const rc = await a.call('POST', `/tables/${t}/columns/${col}/run`);
    expect(rc.status).toBe(402);
    expect(rc.body).toMatchObject({ cost: 4, cap: w.monthSpend });

    await a.setBudget({ balance: 0 });
    const both = await a.call('POST', `/tables/${t}/runs`, {});
    expect(both.status).toBe(402);
    expect(both.body).toMatchObject({ cost: 12, balance: 0, cap: w.monthSpend });

    // The preview stays free and answers.
    expect((await a.preview(t)).body.data).toEqual({ cost: 12, cells: 3, skippedRowIds: [] });
    expect(await a.must('GET', `/tables/${t}/runs`)).toEqual([]);
    expect(await a.cells(t)).toEqual([]);
    await a.setBudget({ spendCap: null, balance: w.balance });
    await expectLedgerInvariant(h.db, ws.id);
  });

  it('4.3 refusals, 7, D4: a balance of exactly 0 (no cap) answers 402 with cost and balance 0 and no cap', async () => {
    const t = await threeCells();
    const w = await a.wallet();
    await a.setBudget({ balance: 0, spendCap: null });
    const r = await a.call('POST', `/tables/${t}/runs`, {});
    expect(r.status).toBe(402);
    expect(r.body).toMatchObject({ success: false, cost: 12, balance: 0 });
    expect(r.body).not.toHaveProperty('cap');
    // A cap not yet reached does not change the answer.
    await a.setBudget({ spendCap: w.monthSpend + 1000 });
    const capped = await a.call('POST', `/tables/${t}/runs`, {});
    expect(capped.status).toBe(402);
    expect(capped.body).toMatchObject({ cost: 12, balance: 0 });
    expect(capped.body).not.toHaveProperty('cap');
    expect(await a.must('GET', `/tables/${t}/runs`)).toEqual([]);
    await a.setBudget({ spendCap: null, balance: w.balance });
    await expectLedgerInvariant(h.db, ws.id);
  });

  it('4.3 refusals, 3.2, D3, D4: a non-zero balance below the estimate still starts; cells beyond the balance end ERROR with blockReason insufficient_credits, uncharged', async () => {
    const t = await threeCells();
    const w = await a.wallet();
    await a.setBudget({ balance: 6, spendCap: null });
    const started = await a.call('POST', `/tables/${t}/runs`, {});
    expect(started.status).toBe(200);
    expect(started.body.data.cells).toBe(3);
    const run = await a.waitRun(t, started.body.data.run.id);
    // One cell ran and succeeded: the run is SUCCESS (D3).
    expect(run).toMatchObject({ status: 'SUCCESS', pendingCells: 0 });
    const cells = await a.settled(t);
    const ok = cells.filter((c) => c.status === 'SUCCESS');
    const blocked = cells.filter((c) => c.status === 'ERROR');
    expect(ok).toHaveLength(1);
    expect(ok[0]!.blockReason).toBeNull();
    expect(blocked).toHaveLength(2);
    for (const c of blocked) {
      expect(c).toMatchObject({
        blockReason: 'insufficient_credits',
        value: null,
        citations: [],
        confidence: null,
      });
      expect(c.statusText).toEqual(expect.any(String));
    }
    expect(await a.balance()).toBe(2);
    await expectCaptured(cells, () => 4);
    // A blocked cell never held anything.
    const holds = await holdsByCell(h.db, ws.id);
    for (const c of blocked) expect(holds.get(c.id) ?? []).toEqual([]);
    await expectLedgerInvariant(h.db, ws.id);
    await a.setBudget({ balance: w.balance });
  });

  it('3.2, D3, D4: a cell whose price would pass the monthly spend cap ends ERROR with blockReason spend_cap, uncharged', async () => {
    const t = await threeCells();
    const w = await a.wallet();
    // Room for one cell at 4, not two.
    await a.setBudget({ spendCap: w.monthSpend + 6 });
    const started = await a.must('POST', `/tables/${t}/runs`, {});
    expect(started.cells).toBe(3);
    const run = await a.waitRun(t, started.run.id);
    expect(run.status).toBe('SUCCESS');
    const cells = await a.settled(t);
    expect(cells.filter((c) => c.status === 'SUCCESS')).toHaveLength(1);
    const capped = cells.filter((c) => c.status === 'ERROR');
    expect(capped).toHaveLength(2);
    for (const c of capped) {
      expect(c).toMatchObject({ blockReason: 'spend_cap', value: null });
      expect(c.statusText).toEqual(expect.any(String));
    }
    const after = await a.wallet();
    expect(after.monthSpend).toBe(w.monthSpend + 4);
    expect(after.balance).toBe(w.balance - 4);
    await expectCaptured(cells, () => 4);
    await expectLedgerInvariant(h.db, ws.id);

    // Now at 2 below the cap: the next start is allowed (cap not reached) and every cell is capped.
    const second = await a.must('POST', `/tables/${t}/runs`, {});
    const run2 = await a.waitRun(t, second.run.id);
    expect(run2.status).toBe('ERROR');
    const cells2 = await a.settled(t);
    expect(cells2.map((c) => c.blockReason)).toEqual(['spend_cap', 'spend_cap', 'spend_cap']);
    expect((await a.wallet()).monthSpend).toBe(w.monthSpend + 4);
    await a.setBudget({ spendCap: null });
    await expectLedgerInvariant(h.db, ws.id);
  });

  it('D3, 4.3: a run whose every cell that ran ended ERROR (all blocked for credits) finishes ERROR; the run list is newest first', async () => {
    const t = await threeCells();
    const w = await a.wallet();
    await a.setBudget({ balance: 1, spendCap: null });
    const started = await a.must('POST', `/tables/${t}/runs`, {});
    expect(started.cells).toBe(3);
    const run = await a.waitRun(t, started.run.id);
    expect(run).toMatchObject({ status: 'ERROR', pendingCells: 0, totalCells: 3 });
    expect(run.finishedAt).toBeGreaterThan(0);
    const cells = await a.settled(t);
    expect(cells.map((c) => [c.status, c.blockReason])).toEqual([
      ['ERROR', 'insufficient_credits'],
      ['ERROR', 'insufficient_credits'],
      ['ERROR', 'insufficient_credits'],
    ]);
    expect(await a.balance()).toBe(1);

    // With credits again, the same cells run and the run is SUCCESS.
    await a.setBudget({ balance: w.balance });
    const again = await a.must('POST', `/tables/${t}/runs`, {});
    expect((await a.waitRun(t, again.run.id)).status).toBe('SUCCESS');
    const rerun = await a.settled(t);
    expect(rerun.map((c) => [c.status, c.blockReason])).toEqual([
      ['SUCCESS', null],
      ['SUCCESS', null],
      ['SUCCESS', null],
    ]);
    expect(w.balance - (await a.balance())).toBe(12);
    const list = await a.must('GET', `/tables/${t}/runs`);
    expect(list.map((r: Json) => [r.id, r.status])).toEqual([
      [again.run.id, 'SUCCESS'],
      [started.run.id, 'ERROR'],
    ]);
    expect((await listHolds(h.db, ws.id)).filter((x) => x.state === 'held')).toEqual([]);
    await expectLedgerInvariant(h.db, ws.id);
  });
});
