import pino from 'pino';
import { afterAll, beforeAll, describe, expect, expectTypeOf, it } from 'vitest';
import { systemClock } from '../src/infra/clock.ts';
import {
  enqueue,
  ensureRecurringTask,
  recurringTaskId,
  type Task,
  UNKNOWN_KIND_GRACE_MS,
} from '../src/infra/queue.ts';
import { TASK_KINDS, type TaskKind } from '../src/infra/task-kinds.ts';
import {
  checkTaskHandlers,
  type RunnerOptions,
  type TaskHandler,
  type TaskHandlers,
  WorkerRunner,
} from '../src/infra/worker-runner.ts';
import { createTestDatabase, type TestDatabase } from './helpers/database.ts';
import { until } from './helpers/runs.ts';

const opts = (): RunnerOptions => ({
  concurrency: 2,
  leaseMs: 2000,
  pollMs: 20,
  log: pino({ level: 'silent' }),
  clock: systemClock,
});

const insertRaw = (t: TestDatabase, id: string, kind: string, refId: string, age = 0) =>
  t.db.query(
    'INSERT INTO tasks (id, kind, ref_id, run_after, attempts, created_at) VALUES ($1, $2, $3, $4, 0, $4)',
    [id, kind, refId, Date.now() - age],
  );

// issue 14 item 3: one runner over a typed registry Record<TaskKind, Handler>, checked at start.
describe('task registry (issue 14)', () => {
  let t: TestDatabase;
  beforeAll(async () => {
    t = await createTestDatabase();
  });
  afterAll(() => t?.drop());

  it('task kinds are a closed union: enqueue and the handler table are typed with it', () => {
    expectTypeOf<Parameters<typeof enqueue>[1]>().toEqualTypeOf<TaskKind>();
    expectTypeOf<'ingset'>().not.toExtend<TaskKind>();
    expectTypeOf<TaskHandlers>().toEqualTypeOf<Readonly<Record<TaskKind, TaskHandler>>>();
    expect([...TASK_KINDS].sort()).toEqual(['file.purge', 'ingest', 'sweep', 'webhook.deliver']);
  });

  it('a task of a kind with no handler ends failed with a clear last_error, and other tasks still run', async () => {
    const ran: string[] = [];
    const handler: TaskHandler = {
      async run(refId) {
        ran.push(refId);
      },
    };
    // Past the grace a rolling deploy gets; a fresh one of a newer version's kind is left alone.
    await insertRaw(t, 'task_unknown1', 'ingset', 'ref-typo', UNKNOWN_KIND_GRACE_MS + 1000);
    await insertRaw(t, 'task_unknown2', 'no.such.kind', 'ref-gone', UNKNOWN_KIND_GRACE_MS + 1000);
    await insertRaw(t, 'task_newer', 'newer.kind', 'ref-newer');
    const now = Date.now();
    await enqueue(t.db, 'ingest', 'ref-ingest', now);
    await enqueue(t.db, 'file.purge', 'ref-purge', now);

    const runner = new WorkerRunner(
      t.db,
      { ingest: handler, 'file.purge': handler, sweep: handler, 'webhook.deliver': handler },
      opts(),
    );
    runner.start();
    try {
      await until('known tasks done', async () => {
        const left = await t.db.query<{ n: number }>(
          "SELECT count(*)::int AS n FROM tasks WHERE kind IN ('ingest', 'file.purge')",
        );
        return left[0].n === 0 ? true : undefined;
      });
      expect(ran.sort()).toEqual(['ref-ingest', 'ref-purge']);

      const failed = await until('unknown tasks failed', async () => {
        const rows = await t.db.query<Task>("SELECT * FROM tasks WHERE id LIKE 'task_unknown%' ORDER BY id");
        return rows.length === 2 && rows.every((r) => r.failed_at !== null) ? rows : undefined;
      });
      expect(failed.map((r) => [r.id, r.last_error])).toEqual([
        [
          'task_unknown1',
          'Unknown task kind "ingset": no handler is registered for it, so the task was not run',
        ],
        [
          'task_unknown2',
          'Unknown task kind "no.such.kind": no handler is registered for it, so the task was not run',
        ],
      ]);
      for (const r of failed) {
        expect(r.attempts).toBe(0); // never claimed, never run
        expect(r.locked_by).toBeNull();
      }

      // The runner goes on: a task queued after the failures still runs.
      await enqueue(t.db, 'ingest', 'ref-later', Date.now());
      runner.poke();
      await until('later task ran', async () => (ran.includes('ref-later') ? true : undefined));
      const after = await t.db.query<Task>('SELECT * FROM tasks ORDER BY id');
      expect(after.map((r) => [r.id, r.attempts, r.failed_at === null])).toEqual([
        ['task_newer', 0, true],
        ['task_unknown1', 0, false],
        ['task_unknown2', 0, false],
      ]);
    } finally {
      await runner.stop();
    }
  });

  it('the start-up check names a missing handler, and a handler filed under an unknown kind', () => {
    const handler: TaskHandler = { run: async () => {} };
    expect(
      () =>
        new WorkerRunner(
          t.db,
          { ingest: handler, sweep: handler, 'webhook.deliver': handler } as unknown as TaskHandlers,
          opts(),
        ),
    ).toThrow(
      'Worker start-up: no handler for task kind "file.purge"; every TaskKind (src/infra/task-kinds.ts) needs one',
    );
    expect(() => checkTaskHandlers({})).toThrow(
      'no handler for task kinds "ingest", "file.purge", "sweep", "webhook.deliver"',
    );
    expect(() =>
      checkTaskHandlers({ ingest: handler, 'file.purge': {}, sweep: handler, 'webhook.deliver': handler }),
    ).toThrow('no handler for task kind "file.purge"');
    expect(() =>
      checkTaskHandlers({
        ingest: handler,
        'file.purge': handler,
        sweep: handler,
        'webhook.deliver': handler,
        'file.purg': handler,
      }),
    ).toThrow(
      'Worker start-up: handler for unknown task kind "file.purg"; add it to TASK_KINDS (src/infra/task-kinds.ts)',
    );
    expect(() =>
      checkTaskHandlers({
        ingest: handler,
        'file.purge': handler,
        sweep: handler,
        'webhook.deliver': handler,
      }),
    ).not.toThrow();
  });

  it('a recurring task is one row however many workers start; each beat runs once and comes back, a failed beat retries', async () => {
    await t.db.query('DELETE FROM tasks');
    const beats: string[] = [];
    let failNext = true;
    const sweep: TaskHandler = {
      repeatAfterMs: 150,
      maxAttempts: Number.POSITIVE_INFINITY,
      async run(_ref, ctx) {
        if (failNext) {
          failNext = false;
          throw new Error('disk busy');
        }
        beats.push(`attempt ${ctx.attempt}`);
      },
    };
    const idle: TaskHandler = { run: async () => {} };
    const now = Date.now();
    // Three workers start (and each makes sure the beat exists): still one row.
    await Promise.all([1, 2, 3].map(() => ensureRecurringTask(t.db, 'sweep', now, now)));
    const rows = await t.db.query<Task>("SELECT * FROM tasks WHERE kind = 'sweep'");
    expect(rows.map((r) => r.id)).toEqual([recurringTaskId('sweep')]);
    const runners = [1, 2].map(
      () =>
        new WorkerRunner(t.db, { ingest: idle, 'file.purge': idle, sweep, 'webhook.deliver': idle }, opts()),
    );
    for (const r of runners) r.start();
    try {
      // The first beat fails and is retried (1 s backoff), then beats go on every 150 ms.
      await until('three beats', async () => (beats.length >= 3 ? true : undefined), 15_000);
    } finally {
      await Promise.all(runners.map((r) => r.stop()));
    }
    // After the failure, the retry was attempt 2; every later beat starts from a fresh count.
    expect(beats.slice(0, 3)).toEqual(['attempt 2', 'attempt 1', 'attempt 1']);
    const after = await t.db.query<Task>("SELECT * FROM tasks WHERE kind = 'sweep'");
    expect(after).toHaveLength(1);
    expect(after[0]).toMatchObject({ id: recurringTaskId('sweep'), locked_by: null, last_error: null });
  });
});
