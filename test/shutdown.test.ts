/**
 * Issue 17 item 4: graceful shutdown of the real service (`npm start`: API and worker in one
 * process), on the embedded database and on PostgreSQL. SIGTERM
 * - mid-ingest: the process exits 0 with the job's task handed back (no lease left to run
 *   out), and a restart finishes the job charging each page exactly once;
 * - mid-run: cells being answered finish and are charged within the grace, or go back to the
 *   queue with their holds released once it is over; nothing more is claimed; a restart
 *   finishes the run with every cell SUCCESS, charged once, and the ledger whole;
 * - mid-request: a slow upload in flight gets its response while new connections are refused.
 * The tests assert states, bodies and ledger sums, never how long anything took.
 */

import { mkdtempSync } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { Database, Queryable } from '../src/infra/db/database.ts';
import { openPglite } from '../src/infra/db/pglite.ts';
import { makeLargeTextPdf, makeTextPdf } from './fixtures/pdf.ts';
import { createTestDatabase, type TestDatabase } from './helpers/database.ts';
import { ADMIN_TOKEN } from './helpers/harness.ts';
import { freePort, type Spawned, spawnScript, waitHealthy } from './helpers/process.ts';
import { expectLedgerInvariant, type Json, until } from './helpers/runs.ts';

const running: Spawned[] = [];
const cleanups: (() => Promise<void>)[] = [];
afterAll(async () => {
  await Promise.all(running.map((s) => s.stop('SIGKILL')));
  for (const c of cleanups) await c().catch(() => {});
});

/**
 * One deployment under test: a DATA_DIR and, on the PostgreSQL pass, a schema of its own,
 * started, stopped and started again as `npm start` (src/start/main.ts) processes.
 */
class Deployment {
  readonly dataDir = mkdtempSync(path.join(os.tmpdir(), 'folio-shutdown-'));
  tdb: TestDatabase | null = null;
  proc: Spawned | null = null;
  port = 0;

  static async create(): Promise<Deployment> {
    const d = new Deployment();
    if (process.env.DATABASE_URL) {
      d.tdb = await createTestDatabase();
      cleanups.push(() => d.tdb!.drop());
    }
    return d;
  }

  async start(env: Record<string, string> = {}): Promise<Spawned> {
    this.port = await freePort();
    const s = spawnScript('src/start/main.ts', {
      PORT: String(this.port),
      DATA_DIR: this.dataDir,
      ADMIN_TOKEN,
      INGEST_THREADS: '1',
      // Only a handed-back task or cell is picked up again by a restart within the test.
      TASK_LEASE_MS: '3600000',
      ...(this.tdb ? { DATABASE_URL: this.tdb.url! } : {}),
      ...env,
    });
    running.push(s);
    this.proc = s;
    await waitHealthy(s, this.port);
    return s;
  }

  /** SIGTERM; resolves with the exit code. */
  async terminate(): Promise<number | null> {
    return this.proc!.stop('SIGTERM');
  }

  url(p: string): string {
    return `http://127.0.0.1:${this.port}${p}`;
  }

  async call(method: string, p: string, opts: { key?: string; body?: unknown } = {}): Promise<Json> {
    const r = await fetch(this.url(p), {
      method,
      headers: {
        ...(opts.key ? { 'x-api-key': opts.key } : { 'x-admin-token': ADMIN_TOKEN }),
        ...(opts.body !== undefined ? { 'content-type': 'application/json' } : {}),
      },
      body: opts.body !== undefined ? JSON.stringify(opts.body) : undefined,
    });
    const text = await r.text();
    if (r.status !== 200) throw new Error(`${method} ${p}: ${r.status} ${text}`);
    return (JSON.parse(text) as { data: Json }).data;
  }

  async workspace(credits: number): Promise<{ id: string; key: string }> {
    const ws = await this.call('POST', '/admin/workspaces', {
      body: { name: 'shutdown', credits, tier: 'gold' },
    });
    const key = await this.call('POST', `/admin/workspaces/${ws.id}/keys`, { body: { level: 'read_write' } });
    return { id: ws.id, key: key.key };
  }

  async upload(ws: { id: string; key: string }, data: Uint8Array, name: string): Promise<Json> {
    const form = new FormData();
    form.append('file', new Blob([data]), name);
    const r = await fetch(this.url(`/v2/workspaces/${ws.id}/files`), {
      method: 'POST',
      headers: { 'x-api-key': ws.key },
      body: form,
    });
    const text = await r.text();
    if (r.status !== 200) throw new Error(`upload: ${r.status} ${text}`);
    return (JSON.parse(text) as { data: Json }).data;
  }

  async waitJob(ws: { id: string; key: string }, jobId: string): Promise<Json> {
    return until(
      `job ${jobId} to finish`,
      async () => {
        const job = await this.call('GET', `/v2/workspaces/${ws.id}/jobs/${jobId}`, { key: ws.key });
        return job.status === 'SUCCESS' || job.status === 'ERROR' ? job : undefined;
      },
      120_000,
    );
  }

  /**
   * Reads the database while no process runs (the embedded one belongs to its process while
   * it runs; PostgreSQL could be read at any time, but both passes read at the same moments).
   */
  async read<T>(fn: (q: Queryable) => Promise<T>): Promise<T> {
    expect(this.proc?.proc.exitCode ?? 0, 'the service is stopped').not.toBeNull();
    if (this.tdb) return fn(this.tdb.db);
    const db: Database = await openPglite(path.join(this.dataDir, 'pgdata'));
    try {
      return await fn(db);
    } finally {
      await db.close();
    }
  }
}

/** True once a new connection to the port is refused (the listener has closed). */
async function refused(port: number): Promise<true | undefined> {
  try {
    const r = await fetch(`http://127.0.0.1:${port}/healthz`);
    await r.text();
    return undefined;
  } catch (err) {
    return (err as { cause?: { code?: string } }).cause?.code === 'ECONNREFUSED' ? true : undefined;
  }
}

const count = async (q: Queryable, sql: string, params: unknown[]) =>
  Number((await q.query<{ n: number }>(sql, params))[0]!.n);

describe('SIGTERM mid-ingest', () => {
  it('exits 0 handing the job back; a restart finishes it, each page charged exactly once', async () => {
    const d = await Deployment.create();
    const pages = 200;
    const credits = 1000;
    await d.start({ SHUTDOWN_GRACE_MS: '200' });
    const ws = await d.workspace(credits);
    const job = await d.upload(ws, await makeLargeTextPdf(pages), 'long.pdf');
    const stored = async () =>
      (await d.call('GET', `/v2/workspaces/${ws.id}/files/${job.fileId}`, { key: ws.key }))
        .itemCount as number;
    await until('some pages to be stored', async () => ((await stored()) >= 5 ? true : undefined), 120_000);

    expect(await d.terminate()).toBe(0);
    const at = await d.read(async (q) => ({
      job: (await q.query<{ status: string }>('SELECT status FROM jobs WHERE id = $1', [job.id]))[0]!,
      task: (
        await q.query<{ locked_by: string | null; lease_until: number | null; attempts: number }>(
          'SELECT locked_by, lease_until, attempts FROM tasks WHERE ref_id = $1',
          [job.id],
        )
      )[0]!,
      done: await count(q, 'SELECT count(*)::int AS n FROM file_pages WHERE file_id = $1', [job.fileId]),
      charged: await count(
        q,
        `SELECT count(*)::int AS n FROM credit_ledger WHERE reason = 'ingest_page' AND ref_id = $1`,
        [job.id],
      ),
    }));
    // Stopped part-way: the task is free for the next worker at once, its attempt not counted.
    expect(at.job.status).toBe('IN_PROGRESS');
    expect(at.done).toBeGreaterThanOrEqual(5);
    expect(at.done).toBeLessThan(pages);
    expect(at.charged).toBe(at.done);
    expect(at.task).toMatchObject({ locked_by: null, lease_until: null, attempts: 0 });

    // The restart picks it up at once (the lease was hours long) and finishes it.
    await d.start();
    const done = await d.waitJob(ws, job.id);
    expect(done.status).toBe('SUCCESS');
    expect(await stored()).toBe(pages);
    expect((await d.call('GET', `/admin/workspaces/${ws.id}`)).balance).toBe(credits - pages);
    expect(await d.terminate()).toBe(0);
    await d.read(async (q) => {
      const perPage = await q.query<{ n: number }>(
        `SELECT count(*)::int AS n FROM credit_ledger WHERE reason = 'ingest_page' AND ref_id = $1`,
        [job.id],
      );
      expect(perPage[0]!.n).toBe(pages);
      expect(await count(q, 'SELECT count(*)::int AS n FROM tasks WHERE ref_id = $1', [job.id])).toBe(0);
      await expectLedgerInvariant(q, ws.id);
    });
  }, 300_000);
});

/**
 * An OpenAI-compatible model server that holds every request until told: `answerHeld()`
 * answers those waiting now (later ones wait again), `open()` answers everything from then on.
 * Its answer, "Acme Corp", is quoted from page 1 of every document.
 */
class GatedModel {
  readonly server = http.createServer((req, res) => this.#handle(req, res));
  url = '';
  requests = 0;
  /** Requests whose client went away unanswered (a worker that gave the cell back). */
  abandoned = 0;
  held: http.ServerResponse[] = [];
  #open = false;

  async start(): Promise<void> {
    await new Promise<void>((r) => this.server.listen(0, '127.0.0.1', r));
    this.url = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}/v1`;
  }

  answerHeld(): void {
    const held = this.held;
    this.held = [];
    for (const res of held) this.#reply(res);
  }

  open(): void {
    this.#open = true;
    this.answerHeld();
  }

  close(): void {
    this.#open = false;
  }

  async stop(): Promise<void> {
    this.open();
    this.server.closeAllConnections();
    await new Promise((r) => this.server.close(r));
  }

  #handle(req: http.IncomingMessage, res: http.ServerResponse): void {
    req.resume();
    req.on('end', () => {
      if (req.method !== 'POST' || req.url !== '/v1/chat/completions') {
        res.writeHead(404).end();
        return;
      }
      this.requests++;
      res.on('close', () => {
        if (!res.writableEnded) this.abandoned++;
        this.held = this.held.filter((r) => r !== res);
      });
      if (this.#open) this.#reply(res);
      else this.held.push(res);
    });
  }

  #reply(res: http.ServerResponse): void {
    if (res.destroyed || res.writableEnded) return;
    const content = JSON.stringify({
      quotes: [{ page: 1, quote: 'Acme Corp' }],
      value: 'Acme Corp',
      confidence: 0.9,
    });
    res.writeHead(200, { 'content-type': 'application/json' }).end(
      JSON.stringify({
        id: `chatcmpl-${this.requests}`,
        object: 'chat.completion',
        created: 0,
        model: 'gated',
        choices: [{ index: 0, message: { role: 'assistant', content }, finish_reason: 'stop' }],
        usage: { prompt_tokens: 100, completion_tokens: 20, total_tokens: 120 },
      }),
    );
  }
}

describe('SIGTERM mid-run', () => {
  const model = new GatedModel();
  afterAll(() => model.stop());

  it('finishes or hands back the cells in flight, claims no more, and a restart ends the run charging each cell once', async () => {
    await model.start();
    const d = await Deployment.create();
    const IN_FLIGHT = 2;
    const env = {
      ENGINE: 'openai',
      OPENAI_BASE_URL: model.url,
      OPENAI_MODEL: 'gated',
      OPENAI_MAX_RETRIES: '0',
      // One cell per batch with a model server; this many batches (questions) in flight.
      RUN_CONCURRENCY: String(IN_FLIGHT),
      OPENAI_CONCURRENCY: String(IN_FLIGHT),
    };
    // A grace long enough for the held answers to arrive and be recorded.
    await d.start({ ...env, SHUTDOWN_GRACE_MS: '60000' });
    const credits = 1000;
    const ws = await d.workspace(credits);
    const v2 = (p: string) => `/v2/workspaces/${ws.id}${p}`;
    const key = { key: ws.key };

    const fileIds: string[] = [];
    for (let i = 0; i < 3; i++) {
      const pdf = await makeTextPdf([
        [`ORDER ${i}`, 'Supplier: Acme Corp', 'Customer: Beta LLC'],
        ['Terms: thirty days', 'Currency: EUR'],
      ]);
      const job = await d.upload(ws, pdf, `order-${i}.pdf`);
      expect((await d.waitJob(ws, job.id)).status).toBe('SUCCESS');
      fileIds.push(job.fileId);
    }
    const pagesCharged = 3 * 2;
    const table = (await d.call('POST', v2('/tables'), { ...key, body: { name: 'shutdown' } })).id as string;
    for (const prompt of [
      'Who is the supplier?',
      'Who is the seller?',
      'Which company ships?',
      'Who invoices?',
    ]) {
      await d.call('POST', v2(`/tables/${table}/columns`), { ...key, body: { name: prompt, prompt } });
    }
    for (const fileId of fileIds) {
      await d.call('POST', v2(`/tables/${table}/rows`), {
        ...key,
        body: { subjectType: 'file', subjectId: fileId },
      });
    }
    const preview = await d.call('GET', v2(`/tables/${table}/runs/preview`), key);
    const cellCount = preview.cells as number;
    const price = (preview.cost as number) / cellCount;
    expect(cellCount).toBe(12);

    const started = await d.call('POST', v2(`/tables/${table}/runs`), { ...key, body: {} });
    const runId = started.run.id as string;
    await until('cells in flight to the model', async () =>
      model.held.length === IN_FLIGHT ? true : undefined,
    );

    // 1. SIGTERM while two answers are outstanding; they arrive after the signal, within the grace.
    const exit1 = d.terminate();
    await until('the listener to close', () => refused(d.port));
    model.answerHeld();
    expect(await exit1).toBe(0);
    expect(model.requests).toBe(IN_FLIGHT); // nothing more was claimed after the signal
    const state = (q: Queryable) =>
      Promise.all([
        q.query<{ status: string; n: number }>(
          'SELECT status, count(*)::int AS n FROM cells WHERE run_id = $1 GROUP BY status ORDER BY status',
          [runId],
        ),
        q.query<{ state: string; n: number }>(
          'SELECT state, count(*)::int AS n FROM credit_holds WHERE run_id = $1 GROUP BY state ORDER BY state',
          [runId],
        ),
        count(q, 'SELECT count(*)::int AS n FROM tasks WHERE locked_by IS NOT NULL', []),
      ]).then(([cells, holds, locked]) => ({
        cells: Object.fromEntries(cells.map((c) => [c.status, c.n])),
        holds: Object.fromEntries(holds.map((h) => [h.state, h.n])),
        locked,
      }));
    expect(await d.read(state)).toEqual({
      cells: { IN_QUEUE: cellCount - IN_FLIGHT, SUCCESS: IN_FLIGHT },
      holds: { captured: IN_FLIGHT },
      locked: 0,
    });
    await d.read((q) => expectLedgerInvariant(q, ws.id));

    // 2. SIGTERM again while two answers are outstanding, and the model never answers: once the
    // (short) grace is over the cells go back to the queue and their holds are released.
    await d.start({ ...env, SHUTDOWN_GRACE_MS: '300' });
    await until('cells in flight to the model', async () =>
      model.held.length === IN_FLIGHT ? true : undefined,
    );
    expect(await d.terminate()).toBe(0);
    expect(model.requests).toBe(2 * IN_FLIGHT);
    await until('the abandoned requests to close', async () =>
      model.abandoned === IN_FLIGHT ? true : undefined,
    );
    expect(await d.read(state)).toEqual({
      cells: { IN_QUEUE: cellCount - IN_FLIGHT, SUCCESS: IN_FLIGHT },
      holds: { captured: IN_FLIGHT, released: IN_FLIGHT },
      locked: 0,
    });
    await d.read(async (q) => {
      // The handed-back cells carry no lease and no hold; their interrupted attempt is not counted.
      const back = await q.query<{ claim_id: string | null; hold_id: string | null; attempts: number }>(
        `SELECT claim_id, hold_id, attempts FROM cells WHERE run_id = $1 AND status = 'IN_QUEUE'`,
        [runId],
      );
      expect(back.every((c) => c.claim_id === null && c.hold_id === null && c.attempts === 0)).toBe(true);
      await expectLedgerInvariant(q, ws.id);
    });

    // 3. A restart with the model answering finishes the run.
    model.open();
    await d.start(env);
    const run = await until(
      'the run to finish',
      async () => {
        const r = await d.call('GET', v2(`/tables/${table}/runs/${runId}`), key);
        return ['SUCCESS', 'ERROR', 'CANCELED'].includes(r.status) ? r : undefined;
      },
      120_000,
    );
    expect(run.status).toBe('SUCCESS');
    const cells = (await d.call('GET', v2(`/tables/${table}/cells`), key)) as unknown as Json[];
    expect(cells).toHaveLength(cellCount);
    expect(cells.every((c) => c.status === 'SUCCESS')).toBe(true);
    expect((await d.call('GET', `/admin/workspaces/${ws.id}`)).balance).toBe(
      credits - pagesCharged - cellCount * price,
    );
    expect(await d.terminate()).toBe(0);
    await d.read(async (q) => {
      const holds = await q.query<{ cell_id: string; state: string; amount: number }>(
        'SELECT cell_id, state, amount FROM credit_holds WHERE run_id = $1',
        [runId],
      );
      expect(holds.filter((h) => h.state === 'held')).toEqual([]);
      const captured = holds.filter((h) => h.state === 'captured');
      // Every cell captured exactly once, at its price: no double charge.
      expect(new Set(captured.map((h) => h.cell_id)).size).toBe(cellCount);
      expect(captured).toHaveLength(cellCount);
      expect(captured.reduce((s, h) => s + Number(h.amount), 0)).toBe(cellCount * price);
      expect(holds.filter((h) => h.state === 'released')).toHaveLength(IN_FLIGHT);
      await expectLedgerInvariant(q, ws.id);
    });
  }, 300_000);
});

describe('SIGTERM mid-request', () => {
  it('lets an upload in flight finish and answer, while new connections are refused', async () => {
    const d = await Deployment.create();
    await d.start({ SHUTDOWN_GRACE_MS: '60000' });
    const ws = await d.workspace(100);

    // A multipart upload sent in two halves: the first before the signal, the rest after it.
    const pdf = Buffer.from(await makeTextPdf([['Sent slowly', 'across a shutdown']]));
    const boundary = 'folio-shutdown-boundary';
    const head = Buffer.from(
      `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="slow.pdf"\r\n` +
        'Content-Type: application/pdf\r\n\r\n',
    );
    const tail = Buffer.from(`\r\n--${boundary}--\r\n`);
    const body = Buffer.concat([head, pdf, tail]);
    const half = head.length + Math.floor(pdf.length / 2);
    let sent: () => void = () => {};
    let firstHalf: () => void = () => {};
    const flushed = new Promise<void>((r) => {
      firstHalf = r;
    });
    const response = new Promise<{ status: number; connection: string | undefined; body: string }>(
      (resolve, reject) => {
        const req = http.request(
          {
            host: '127.0.0.1',
            port: d.port,
            method: 'POST',
            path: `/v2/workspaces/${ws.id}/files`,
            headers: {
              'x-api-key': ws.key,
              'content-type': `multipart/form-data; boundary=${boundary}`,
              'content-length': String(body.length),
            },
          },
          (res) => {
            let text = '';
            res.on('data', (c) => {
              text += c;
            });
            res.on('end', () =>
              resolve({ status: res.statusCode ?? 0, connection: res.headers.connection, body: text }),
            );
          },
        );
        req.on('error', reject);
        req.write(body.subarray(0, half), () => firstHalf());
        sent = () => req.end(body.subarray(half));
      },
    );
    // The first half is on the wire: the server is reading the request when the signal comes.
    await flushed;
    await new Promise((r) => setTimeout(r, 300));

    const exit = d.terminate();
    await until('the listener to close', () => refused(d.port));
    // New connections are refused while the upload is still in flight...
    expect(await refused(d.port)).toBe(true);
    sent();
    // ...and the upload gets its answer: the job, accepted.
    const answer = await response;
    expect(answer.status).toBe(200);
    expect(answer.connection).toBe('close');
    const job = (JSON.parse(answer.body) as { data: Json }).data;
    expect(job.status).toMatch(/^(NOT_STARTED|IN_QUEUE|IN_PROGRESS)$/);
    expect(await exit).toBe(0);

    // Nothing was lost: the restarted service reads the upload it accepted while stopping.
    await d.start();
    expect((await d.waitJob(ws, job.id)).status).toBe('SUCCESS');
    expect(await d.terminate()).toBe(0);
  }, 300_000);
});
