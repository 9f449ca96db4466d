/**
 * Issue 15 item 2, fair queues: one workspace's bulk work cannot hold back another's small
 * job by more than one task (ingest tasks) or one batch (table cells), and a setting caps
 * the tasks one workspace runs at once. Real database, real queue, real worker.
 */
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { systemClock } from '../src/infra/clock.ts';
import { enqueue } from '../src/infra/queue.ts';
import { type TaskHandler, WorkerRunner } from '../src/infra/worker-runner.ts';
import { runWorker } from '../src/start/worker.ts';
import { createTestDatabase, type TestDatabase } from './helpers/database.ts';
import { type Harness, startHarness, type TestWorkspace } from './helpers/harness.ts';
import { api, until } from './helpers/runs.ts';
import { seedFiles } from './helpers/seed.ts';

const silent = pino({ level: 'silent' });

describe('fair task claims (issue 15 item 2)', () => {
  let t: TestDatabase;
  beforeAll(async () => {
    t = await createTestDatabase();
  });
  afterAll(() => t?.drop());

  /** A handler whose tasks wait until released, recording start order and concurrency. */
  function gate() {
    const started: string[] = [];
    const waiting = new Map<string, () => void>();
    let running = 0;
    let maxByWorkspace = new Map<string, number>();
    const runningByWorkspace = new Map<string, number>();
    const handler: TaskHandler = {
      async run(ref) {
        started.push(ref);
        const ws = ref.split(':')[0]!;
        running++;
        runningByWorkspace.set(ws, (runningByWorkspace.get(ws) ?? 0) + 1);
        maxByWorkspace.set(ws, Math.max(maxByWorkspace.get(ws) ?? 0, runningByWorkspace.get(ws)!));
        await new Promise<void>((release) => waiting.set(ref, release));
        running--;
        runningByWorkspace.set(ws, runningByWorkspace.get(ws)! - 1);
      },
    };
    return {
      handler,
      started,
      release: (ref: string) => waiting.get(ref)?.(),
      isWaiting: (ref: string) => waiting.has(ref),
      maxOf: (ws: string) => maxByWorkspace.get(ws) ?? 0,
      reset: () => {
        maxByWorkspace = new Map();
      },
      get running() {
        return running;
      },
    };
  }

  const runner = (handler: TaskHandler, concurrency: number, perWorkspace = 0) =>
    new WorkerRunner(
      t.db,
      { ingest: handler, 'file.purge': handler, sweep: handler, 'webhook.deliver': handler },
      {
        concurrency,
        perWorkspace,
        leaseMs: 5000,
        pollMs: 10,
        log: silent,
        clock: systemClock,
      },
    );

  it('a small job of a second workspace runs right after the task running when it arrived, ahead of the first workspace’s backlog', async () => {
    await t.db.query('DELETE FROM tasks');
    const g = gate();
    const now = Date.now();
    // Workspace A queues five uploads; B queues one a moment later.
    for (let i = 1; i <= 5; i++) await enqueue(t.db, 'ingest', `A:${i}`, now + i, { workspaceId: 'wks_A' });
    await enqueue(t.db, 'ingest', 'B:1', now + 10, { workspaceId: 'wks_B' });
    const r = runner(g.handler, 1);
    r.start();
    try {
      for (const expected of ['A:1', 'B:1', 'A:2', 'A:3', 'A:4', 'A:5']) {
        await until(`${expected} started`, async () => (g.isWaiting(expected) ? true : undefined));
        g.release(expected);
      }
    } finally {
      await r.stop();
    }
    // Oldest first within a workspace; B waited for one task of A, not five.
    expect(g.started).toEqual(['A:1', 'B:1', 'A:2', 'A:3', 'A:4', 'A:5']);
  });

  it('WORKSPACE_TASK_LIMIT caps one workspace’s running tasks while another workspace still gets a slot', async () => {
    await t.db.query('DELETE FROM tasks');
    const g = gate();
    const now = Date.now();
    for (let i = 1; i <= 4; i++) await enqueue(t.db, 'ingest', `A:${i}`, now + i, { workspaceId: 'wks_A' });
    const r = runner(g.handler, 3, 1);
    r.start();
    try {
      await until('A:1 started', async () => (g.isWaiting('A:1') ? true : undefined));
      // Three slots, one A task: the cap holds back A:2 although two slots are idle.
      await enqueue(t.db, 'ingest', 'B:1', Date.now(), { workspaceId: 'wks_B' });
      r.poke();
      await until('B:1 started', async () => (g.isWaiting('B:1') ? true : undefined));
      expect(g.started).toEqual(['A:1', 'B:1']);
      for (const ref of ['A:1', 'B:1', 'A:2', 'A:3', 'A:4']) {
        await until(`${ref} started`, async () => (g.isWaiting(ref) ? true : undefined));
        g.release(ref);
      }
    } finally {
      await r.stop();
    }
    expect(g.maxOf('A')).toBe(1);
    expect(g.started).toEqual(['A:1', 'B:1', 'A:2', 'A:3', 'A:4']);
  });
});

describe('fair cell queue across workspaces (issue 15 item 2, 4.3)', () => {
  let h: Harness;
  let wsA: TestWorkspace;
  let wsB: TestWorkspace;
  beforeAll(async () => {
    // No worker yet: both runs are queued before any cell is claimed, so the order the
    // worker takes them in is the queue's alone.
    h = await startHarness({ RUN_CONCURRENCY: '1' });
    wsA = await h.workspace({ credits: 100_000 });
    wsB = await h.workspace({ credits: 1000 });
  });
  afterAll(() => h?.close());

  it('a small run started after a big one of another workspace finishes while the big one is still going', async () => {
    const a = api(h, wsA);
    const b = api(h, wsB);
    const bigTable = await a.table('big');
    const smallTable = await b.table('small');
    for (let i = 0; i < 10; i++)
      await a.column(bigTable, { prompt: `What is field ${i}?`, outputType: 'text_quote' });
    for (const id of await seedFiles(h.db, wsA.id, 30)) await a.fileRow(bigTable, id);
    for (let i = 0; i < 2; i++)
      await b.column(smallTable, { prompt: `What is field ${i}?`, outputType: 'text_quote' });
    for (const id of await seedFiles(h.db, wsB.id, 1)) await b.fileRow(smallTable, id);

    const big = (await a.must('POST', `/tables/${bigTable}/runs`, {})).run;
    const small = (await b.must('POST', `/tables/${smallTable}/runs`, {})).run;
    expect([big.totalCells, small.totalCells]).toEqual([300, 2]);

    const worker = runWorker(
      { config: h.config, db: h.db, shareSecret: h.shareSecret, blobs: h.blobs, shutdown: async () => {} },
      silent,
    );
    try {
      const done = await b.waitRun(smallTable, small.id, 60_000);
      const bigNow = await a.must('GET', `/tables/${bigTable}/runs/${big.id}`);
      expect(done.status).not.toBe('IN_PROGRESS');
      expect(done.pendingCells).toBe(0);
      // First come would have served all 300 of A's cells first; fair, B waited for about a batch.
      expect(bigNow.status).toBe('IN_PROGRESS');
      expect(bigNow.pendingCells).toBeGreaterThan(200);
      await a.waitRun(bigTable, big.id, 120_000);
      // A's second run queues behind its first: positions keep growing per workspace.
    } finally {
      await worker.stop();
    }
  });
});
