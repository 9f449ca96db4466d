/**
 * Issue 14's fast tier: rules of the domain checked against the real database (PGlite, or
 * PostgreSQL under DATABASE_URL) through the repository seam, with no HTTP in between and
 * time given as an argument, never read from the system.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createColumn, patchColumn } from '../src/domain/columns.ts';
import { changeBalance, holdCredits, settleCredits } from '../src/domain/credits.ts';
import { archiveTable, createTable, patchTable } from '../src/domain/tables.ts';
import { createWorkspace, grantCredits } from '../src/domain/workspaces.ts';
import { repos, transaction } from '../src/infra/repos/index.ts';
import { createTestDatabase, type TestDatabase } from './helpers/database.ts';

const NOV = Date.UTC(2026, 10, 25, 12);
const clock = () => NOV;

describe('domain rules through the seam, no HTTP (issue 14)', () => {
  let t: TestDatabase;
  beforeAll(async () => {
    t = await createTestDatabase();
  });
  afterAll(() => t?.drop());

  const ledgerOf = async (id: string) =>
    (await repos(t.db).ledger.listLedger(id)).map((r) => ({
      amount: r.amount,
      after: r.balance_after,
      reason: r.reason,
    }));

  it('D1: a grant writes its ledger row with the balance, and a removal stops the balance at 0', async () => {
    const w = await createWorkspace(t.db, { name: 'grants', credits: 10 }, null, NOV);
    expect(w.balance).toBe(10);
    const after = await grantCredits(t.db, w.id, -25, 'admin', clock);
    expect(after.balance).toBe(0);
    expect(await ledgerOf(w.id)).toEqual(
      expect.arrayContaining([
        { amount: 10, after: 10, reason: 'grant' },
        { amount: -10, after: 0, reason: 'grant' },
      ]),
    );
  });

  it('D4: a spend the balance cannot cover is a 402 and moves nothing, ledger included', async () => {
    const w = await createWorkspace(t.db, { name: 'short', credits: 3 }, null, NOV);
    const err = await transaction(t.db, (_r, tx) =>
      changeBalance(tx, { workspaceId: w.id, amount: -4, reason: 'ingest_page', isSpend: true }, NOV),
    ).catch((e: unknown) => e);
    expect(err).toMatchObject({ status: 402, extra: { balance: 3 } });
    expect((await repos(t.db).workspaces.findWorkspace(w.id))?.balance).toBe(3);
    expect(await ledgerOf(w.id)).toEqual([{ amount: 3, after: 3, reason: 'grant' }]);
  });

  it('D4: a hold leaves the balance at once; capture adds to the month spend, release gives back; each settles once', async () => {
    const w = await createWorkspace(t.db, { name: 'holds', credits: 20 }, null, NOV);
    const [keep, giveBack] = await transaction(t.db, async (r, tx) => {
      const row = (await r.workspaces.findWorkspace(w.id, { forUpdate: true }))!;
      return holdCredits(
        tx,
        row,
        [
          { cellId: 'cell_a', runId: 'run_1', amount: 4 },
          { cellId: 'cell_b', runId: 'run_1', amount: 6 },
        ],
        NOV,
      );
    });
    expect((await repos(t.db).workspaces.findWorkspace(w.id))?.balance).toBe(10);
    await transaction(t.db, (_r, tx) => settleCredits(tx, [keep], 'captured', NOV));
    await transaction(t.db, (_r, tx) => settleCredits(tx, [giveBack], 'released', NOV));
    // Settling again (a retried worker) changes nothing.
    expect(await transaction(t.db, (_r, tx) => settleCredits(tx, [keep, giveBack], 'released', NOV))).toEqual(
      [],
    );
    const after = (await repos(t.db).workspaces.findWorkspace(w.id))!;
    expect({ balance: after.balance, monthSpend: after.month_spend }).toEqual({ balance: 16, monthSpend: 4 });
    expect((await ledgerOf(w.id)).map((r) => r.reason).sort()).toEqual([
      'cell_capture',
      'cell_hold',
      'cell_hold',
      'cell_release',
      'grant',
    ]);
    // The ledger sums to the balance: no credit moved outside it.
    expect((await ledgerOf(w.id)).reduce((s, r) => s + r.amount, 0)).toBe(16);
  });

  it('3.2: only a changed prompt or output type bumps a column version; a table locale bumps them all', async () => {
    const w = await createWorkspace(t.db, { name: 'cols' }, null, NOV);
    const table = await createTable(t.db, w.id, { name: 'T' }, NOV);
    const col = await createColumn(t.db, w.id, table.id, { name: 'Total', prompt: 'Total?' }, clock);
    expect(col.version).toBe(1);
    expect((await patchColumn(t.db, w.id, table.id, col.id, { name: 'Sum' }, clock)).version).toBe(1);
    expect((await patchColumn(t.db, w.id, table.id, col.id, { prompt: 'Total due?' }, clock)).version).toBe(
      2,
    );
    expect((await patchColumn(t.db, w.id, table.id, col.id, { outputType: 'number' }, clock)).version).toBe(
      3,
    );
    await patchTable(t.db, w.id, table.id, { locale: 'de-DE' }, clock);
    expect((await repos(t.db).columns.findColumn(table.id, col.id))?.version).toBe(4);
  });

  it('3.4: an archived table refuses changes with a 400, and archiving again keeps the first time', async () => {
    const w = await createWorkspace(t.db, { name: 'arch' }, null, NOV);
    const table = await createTable(t.db, w.id, { name: 'T' }, NOV);
    const first = await archiveTable(t.db, w.id, table.id, clock);
    const again = await archiveTable(t.db, w.id, table.id, () => NOV + 1000);
    expect(again.archivedAt).toBe(first.archivedAt);
    const err = await patchTable(t.db, w.id, table.id, { name: 'U' }, clock).catch((e: unknown) => e);
    expect(err).toMatchObject({ status: 400 });
    const col = await createColumn(t.db, w.id, table.id, { name: 'A', prompt: 'A?' }, clock).catch(
      (e: unknown) => e,
    );
    expect(col).toMatchObject({ status: 400 });
  });
});
