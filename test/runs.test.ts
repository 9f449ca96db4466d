import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Harness, startHarness, type TestWorkspace } from './helpers/harness.ts';
import { api, expectLedgerInvariant, ingestText } from './helpers/runs.ts';

const CONTRACT = [
  [
    'SERVICES AGREEMENT',
    'This Agreement is effective as of March 3, 2021 between Acme Corp and Beta LLC.',
    'The total contract price is $12,500.00 payable in two installments.',
    'This Agreement shall be governed by the laws of the State of Delaware.',
  ],
];

describe('runs (interface.md 4.3, 3.1, 3.2; D3, D4)', () => {
  let h: Harness;
  let ws: TestWorkspace;
  let a: ReturnType<typeof api>;
  let fileId: string;

  beforeAll(async () => {
    h = await startHarness({}, { worker: true });
    ws = await h.workspace({ credits: 1000 });
    a = api(h, ws);
    fileId = await ingestText(h, ws, CONTRACT);
  });
  afterAll(() => h?.close());

  it('3.2: a run fills a date and a number cell and charges creditRate per success', async () => {
    const t = await a.table();
    const date = await a.column(t, { prompt: 'What is the effective date?', outputType: 'date' });
    const num = await a.column(t, {
      prompt: 'What is the total contract price?',
      outputType: 'number',
      creditRate: 10,
    });
    const row = await a.fileRow(t, fileId);
    const before = await a.balance();
    const preview = await a.must('GET', `/tables/${t}/runs/preview`);
    expect(preview).toEqual({ cost: 14, cells: 2, skippedRowIds: [] });
    const started = await a.must('POST', `/tables/${t}/runs`, {});
    expect(started.cells).toBe(2);
    expect(started.run).toMatchObject({ status: 'IN_PROGRESS', triggeredBy: ws.keyId, totalCells: 2 });
    const run = await a.waitRun(t, started.run.id);
    expect(run).toMatchObject({ status: 'SUCCESS', pendingCells: 0, totalCells: 2 });
    expect(run.finishedAt).toBeGreaterThan(0);
    const cells = await a.cells(t);
    const byCol = new Map(cells.map((c) => [c.columnId, c]));
    expect(byCol.get(date.id)).toMatchObject({
      rowId: row,
      status: 'SUCCESS',
      value: { type: 'date', value: '2021-03-03' },
      columnVersion: 1,
      stale: false,
    });
    expect(byCol.get(num.id)).toMatchObject({ status: 'SUCCESS', value: { type: 'number', value: 12500 } });
    expect(byCol.get(num.id)!.citations[0]).toMatchObject({ fileId, page: 1 });
    expect(await a.balance()).toBe(before - 14);
    await expectLedgerInvariant(h.db, ws.id);
  });
});

describe('standing tables (D2)', () => {
  let h: Harness;
  let ws: TestWorkspace;
  let a: ReturnType<typeof api>;

  beforeAll(async () => {
    h = await startHarness({}, { worker: true });
    ws = await h.workspace({ credits: 1000 });
    a = api(h, ws);
  });
  afterAll(() => h?.close());

  it('D2: a file whose ingest succeeds gets a row and a system:auto run in every standing table, charged per cell', async () => {
    const old = await ingestText(h, ws, CONTRACT, 'before.pdf');
    const standing = await a.table('auto', { standing: true });
    const plain = await a.table('manual');
    const archived = await a.table('auto but archived', { standing: true });
    for (const t of [standing, plain, archived]) {
      await a.column(t, { prompt: 'What is the effective date?', outputType: 'date' });
    }
    await a.must('DELETE', `/tables/${archived}`);
    // Setting standing does not back-fill: the file ingested before has no row.
    expect(await a.must('GET', `/tables/${standing}/rows`)).toEqual([]);

    const before = await a.balance();
    const fileId = await ingestText(h, ws, CONTRACT, 'after.pdf');
    const rows = await a.must('GET', `/tables/${standing}/rows`);
    expect(rows.map((r: { subjectId: string }) => r.subjectId)).toEqual([fileId]);
    const runs = await a.must('GET', `/tables/${standing}/runs`);
    expect(runs).toHaveLength(1);
    expect(runs[0]).toMatchObject({ triggeredBy: 'system:auto', totalCells: 1 });
    const run = await a.waitRun(standing, runs[0].id);
    expect(run.status).toBe('SUCCESS');
    const cells = await a.cells(standing);
    expect(cells).toHaveLength(1);
    expect(cells[0]).toMatchObject({
      rowId: rows[0].id,
      status: 'SUCCESS',
      value: { type: 'date', value: '2021-03-03' },
    });
    // 1 page ingested + one cell at rate 4.
    expect(await a.balance()).toBe(before - 1 - 4);

    expect(await a.must('GET', `/tables/${plain}/rows`)).toEqual([]);
    expect(await a.must('GET', `/tables/${plain}/runs`)).toEqual([]);
    expect(await a.must('GET', `/tables/${archived}/rows`)).toEqual([]);
    expect(old).not.toBe(fileId);
    await expectLedgerInvariant(h.db, ws.id);
  });

  it('4.3 rule 7: any Read & write key may cancel the auto-mode run', async () => {
    const t = await a.table('auto cancel', { standing: true });
    for (let i = 0; i < 12; i++)
      await a.column(t, { prompt: `What is the effective date ${i}?`, outputType: 'date' });
    await ingestText(h, ws, CONTRACT, 'cancel.pdf');
    const [auto] = await a.must('GET', `/tables/${t}/runs`);
    expect(auto.triggeredBy).toBe('system:auto');
    const canceled = await a.call('POST', `/tables/${t}/runs/${auto.id}/cancel`);
    // The run may have finished before the cancel arrived; both answers are the contract.
    if (canceled.status === 200)
      expect(canceled.body.data).toMatchObject({ status: 'CANCELED', pendingCells: 0 });
    else expect(canceled.status).toBe(409);
    await expectLedgerInvariant(h.db, ws.id);
  });
});
