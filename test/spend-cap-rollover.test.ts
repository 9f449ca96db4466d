import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { listHolds } from '../src/infra/repos/holds.ts';
import { type Harness, startHarness, type TestWorkspace } from './helpers/harness.ts';
import { api, contractPages, expectLedgerInvariant, ingestText } from './helpers/runs.ts';

// decisions.md D4 (the month's spend against the cap) and interface.md 4.3 refusals (402,
// body carries `cap`) across a month boundary. Issue 14: one injected clock drives the API
// and the worker, so the test moves time instead of waiting for a month to end.

/**
 * The last day of a month (and of a year), noon UTC; the spend month is counted in UTC. In the
 * past on purpose: a worker on the system clock would write every time after NEXT_MONTH and
 * count the spend in the real month, so the checks below tell the two clocks apart for good.
 */
const LAST_DAY_NOON = Date.UTC(2024, 11, 31, 12, 0, 0);
const SAME_DAY_LATE = Date.UTC(2024, 11, 31, 23, 0, 0);
const NEXT_MONTH = Date.UTC(2025, 0, 1, 0, 0, 5);

describe('D4 spend-cap month rollover with an injected clock (interface.md 4.3, decisions.md D4)', () => {
  /** The clock runs at the real pace from wherever the test last set it, so leases and retries behave. */
  let offset = LAST_DAY_NOON - Date.now();
  const clock = () => Date.now() + offset;
  const setClock = (at: number) => {
    offset = at - Date.now();
  };

  let h: Harness;
  let ws: TestWorkspace;
  let a: ReturnType<typeof api>;
  let table: string;

  beforeAll(async () => {
    h = await startHarness({}, { worker: true, now: clock });
    ws = await h.workspace({ credits: 1_000 });
    a = api(h, ws);
    const file = await ingestText(h, ws, contractPages(7), 'contract.pdf');
    table = await a.table('rollover');
    await a.column(table, { prompt: 'What is the effective date?', outputType: 'date' });
    await a.fileRow(table, file);
  });
  afterAll(() => h?.close());

  it('D4, 4.3 refusals: spent up to the cap on the last day of a month, a run start is refused 402 with `cap`; in the next month the same run starts and the month spend counts from 0', async () => {
    // Spend up to the cap on the last day of the month: the ingested page (1 credit) and one
    // cell at rate 4 make the month's spend exactly the cap.
    const start = await a.wallet();
    expect(start.monthSpend).toBeGreaterThan(0); // the page charge counts
    const cap = start.monthSpend + 4;
    await a.setBudget({ spendCap: cap });
    const first = await a.must('POST', `/tables/${table}/runs`, {});
    expect(first.cells).toBe(1);
    expect(first.run.startedAt).toBeGreaterThanOrEqual(LAST_DAY_NOON);
    expect(first.run.startedAt).toBeLessThan(NEXT_MONTH);
    expect((await a.waitRun(table, first.run.id)).status).toBe('SUCCESS');
    const spent = await a.wallet();
    expect(spent).toMatchObject({ spendCap: cap, monthSpend: cap, balance: start.balance - 4 });

    // At the cap: refused before any work, the body carrying `cap` (and `cost`, `balance`).
    const refused = await a.call('POST', `/tables/${table}/runs`, {});
    expect(refused.status).toBe(402);
    expect(refused.body).toMatchObject({
      success: false,
      error: expect.any(String),
      cap,
      cost: 4,
      balance: spent.balance,
    });

    // Later the same day is still the same month: still refused.
    setClock(SAME_DAY_LATE);
    const stillRefused = await a.call('POST', `/tables/${table}/runs`, {});
    expect(stillRefused.status).toBe(402);
    expect(stillRefused.body).toMatchObject({ cap, cost: 4 });
    expect((await a.must('GET', `/tables/${table}/runs`)).map((r: { id: string }) => r.id)).toEqual([
      first.run.id,
    ]);

    // Into the next month: the stored spend belongs to the month before and reads as 0.
    setClock(NEXT_MONTH);
    expect(await a.wallet()).toMatchObject({ spendCap: cap, monthSpend: 0, balance: spent.balance });

    const second = await a.call('POST', `/tables/${table}/runs`, {});
    expect(second.status).toBe(200);
    expect(second.body.data).toMatchObject({ cells: 1, skippedRowIds: [] });
    const run = second.body.data.run;
    expect(run.startedAt).toBeGreaterThanOrEqual(NEXT_MONTH);
    expect((await a.waitRun(table, run.id)).status).toBe('SUCCESS');
    const cells = await a.settled(table);
    expect(cells).toMatchObject([{ status: 'SUCCESS', blockReason: null }]);
    expect(cells[0]!.updatedAt).toBeGreaterThanOrEqual(NEXT_MONTH);

    // The new month's spend is this cell alone, counted from 0 (not the old month's plus 4).
    expect(await a.wallet()).toMatchObject({ spendCap: cap, monthSpend: 4, balance: spent.balance - 4 });

    // The worker read the same clock: the new cell's hold was taken and captured in the new month.
    const holds = await listHolds(h.db, ws.id); // oldest first
    expect(holds.map((x) => x.state)).toEqual(['captured', 'captured']);
    expect(holds[0]!.settled_at).toBeLessThan(NEXT_MONTH);
    expect(holds[1]!.created_at).toBeGreaterThanOrEqual(NEXT_MONTH);
    expect(holds[1]!.settled_at).toBeGreaterThanOrEqual(NEXT_MONTH);
    await expectLedgerInvariant(h.db, ws.id);
  });
});
