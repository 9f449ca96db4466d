import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Harness, startHarness, type TestWorkspace } from './helpers/harness.ts';
import { type Spawned, spawnScript } from './helpers/process.ts';
import { api, expectLedgerInvariant, ingestText } from './helpers/runs.ts';

// issue 6 acceptance: two worker processes on one PostgreSQL, one killed with SIGKILL
// mid-run; every cell ends exactly once, the ledger invariant holds, nothing is charged twice.

const FIELDS = [
  'Supplier',
  'Customer',
  'Invoice number',
  'Order reference',
  'Delivery address',
  'Payment terms',
  'Currency',
  'Project code',
  'Account manager',
  'Warehouse',
];
const DOCS = 4;
/** Questions to the model in flight per worker (OPENAI_CONCURRENCY). */
const IN_FLIGHT = 3;
const fieldValue = (doc: number, field: number) => `${FIELDS[field]!.split(' ')[0]} ${doc}-${field} alpha`;

/**
 * An OpenAI-compatible model server. Its "model" finds the "Label: value" line whose label
 * the question names in the excerpts it is sent, and answers with the value, quoting the
 * line. While `gate` is closed it holds every request unanswered, so a worker can be caught
 * with a request in flight; once open, it answers after `delayMs`.
 */
class SlowModel {
  readonly server = http.createServer((req, res) => this.#handle(req, res));
  url = '';
  delayMs = 100;
  requests = 0;
  /** Requests whose client went away before the answer (a killed worker's). */
  abandoned = 0;
  #gate: (() => void)[] | null = [];
  readonly #inFlight = new Set<http.ServerResponse>();

  get inFlight(): number {
    return this.#inFlight.size;
  }

  async start(): Promise<void> {
    await new Promise<void>((r) => this.server.listen(0, '127.0.0.1', r));
    this.url = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}/v1`;
  }

  open(): void {
    const waiting = this.#gate ?? [];
    this.#gate = null;
    for (const go of waiting) go();
  }

  async stop(): Promise<void> {
    this.open();
    this.server.closeAllConnections();
    await new Promise((r) => this.server.close(r));
  }

  #handle(req: http.IncomingMessage, res: http.ServerResponse): void {
    this.#inFlight.add(res);
    res.on('close', () => {
      this.#inFlight.delete(res);
      if (!res.writableEnded) this.abandoned++;
    });
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', async () => {
      if (req.method !== 'POST' || req.url !== '/v1/chat/completions') {
        res.writeHead(404).end();
        return;
      }
      this.requests++;
      const body = JSON.parse(Buffer.concat(chunks).toString('utf8'));
      if (this.#gate) await new Promise<void>((go) => this.#gate?.push(go) ?? go());
      await new Promise((r) => setTimeout(r, this.delayMs));
      if (res.destroyed) return;
      const content = JSON.stringify(answer(body));
      res.writeHead(200, { 'content-type': 'application/json' }).end(
        JSON.stringify({
          id: `chatcmpl-${this.requests}`,
          object: 'chat.completion',
          created: Math.floor(Date.now() / 1000),
          model: body.model,
          choices: [{ index: 0, message: { role: 'assistant', content }, finish_reason: 'stop' }],
          usage: { prompt_tokens: 100, completion_tokens: 20, total_tokens: 120 },
        }),
      );
    });
  }
}

function answer(body: { messages: { role: string; content: string }[] }) {
  const text = body.messages.find((m) => m.role === 'user')!.content;
  const question = text.slice(text.lastIndexOf('Question: ')).toLowerCase();
  let page = 0;
  for (const line of text.split('\n')) {
    const h = /^--- D\d+ page (\d+) ---$/.exec(line);
    if (h) page = Number(h[1]);
    const m = /^([A-Za-z][A-Za-z ]*?): (.+)$/.exec(line.trim());
    if (page && m && question.includes(`${m[1]!.toLowerCase()}?`)) {
      return { quotes: [{ page, quote: line.trim() }], value: m[2], confidence: 0.9 };
    }
  }
  return { quotes: [], value: null, confidence: 0.5 };
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function until<T>(what: string, probe: () => Promise<T | null>, timeoutMs = 30_000): Promise<T> {
  const started = Date.now();
  for (;;) {
    const v = await probe();
    if (v !== null) return v;
    if (Date.now() - started > timeoutMs) throw new Error(`timed out waiting for ${what}`);
    await sleep(25);
  }
}

describe.runIf(process.env.DATABASE_URL)('a worker killed mid-run, two workers on one PostgreSQL', () => {
  const model = new SlowModel();
  const workers: Spawned[] = [];
  let h: Harness;
  let ws: TestWorkspace;

  beforeAll(async () => {
    await model.start();
    // The API runs here without a worker of its own: the two processes do all the work.
    h = await startHarness({}, { worker: false });
    ws = await h.workspace({ tier: 'gold', credits: 10_000, spendCap: null });
  });
  afterAll(async () => {
    await Promise.all(workers.map((w) => w.stop('SIGKILL')));
    await model.stop();
    await h?.close();
  });

  const startWorker = (): Spawned => {
    const w = spawnScript('src/start/worker.ts', {
      DATABASE_URL: h.dbUrl!,
      // Same blob store as the API: the workers ingest what it accepted.
      DATA_DIR: h.config.dataDir,
      TASK_LEASE_MS: '2000',
      RUN_CONCURRENCY: '1',
      INGEST_THREADS: '1',
      ENGINE: 'openai',
      OPENAI_BASE_URL: model.url,
      OPENAI_MODEL: 'slow-fake',
      OPENAI_MAX_RETRIES: '0',
      // Each worker has at most this many questions in flight.
      OPENAI_CONCURRENCY: String(IN_FLIGHT),
    });
    workers.push(w);
    return w;
  };

  it('every cell ends SUCCESS exactly once, each charged once, and the ledger holds', async () => {
    const a = startWorker();
    const b = startWorker();
    const claimPrefix = `${os.hostname()}:${a.proc.pid}:`;
    const x = api(h, ws);

    const fileIds: string[] = [];
    for (let d = 0; d < DOCS; d++) {
      const lines = FIELDS.map((f, i) => `${f}: ${fieldValue(d, i)}`);
      const pages = [
        ['PURCHASE ORDER', ...lines.slice(0, 5), 'The goods shall be delivered within thirty days.'],
        ['TERMS', ...lines.slice(5), 'Any dispute shall be settled by negotiation first.'],
      ];
      fileIds.push(await ingestText(h, ws, pages, `order-${d}.pdf`));
    }
    const t = await x.table('fault');
    const columns: string[] = [];
    for (const f of FIELDS) columns.push((await x.column(t, { prompt: `What is the ${f}?` })).id);
    const rows: string[] = [];
    for (const f of fileIds) rows.push(await x.fileRow(t, f));

    const preview = await x.must('GET', `/tables/${t}/runs/preview`);
    expect(preview).toMatchObject({ cells: DOCS * FIELDS.length, cost: DOCS * FIELDS.length * 4 });
    const before = await x.balance();
    const started = await x.must('POST', `/tables/${t}/runs`, {});
    const runId: string = started.run.id;
    expect(started.cells).toBe(DOCS * FIELDS.length);

    // Both workers claim cells and ask the model about them; the model holds every answer
    // until both have all their questions in flight, so A is caught mid-extraction.
    const heldByA = () =>
      h.db.query<{ id: string; hold_id: string }>(
        `SELECT id, hold_id FROM cells WHERE run_id = $1 AND status = 'IN_PROGRESS' AND claim_id LIKE $2`,
        [runId, `${claimPrefix}%`],
      );
    await until('worker A to hold cells with a request in flight', async () =>
      (await heldByA()).length > 0 && model.inFlight >= 2 * IN_FLIGHT ? true : null,
    );
    const killedAt = Date.now();
    a.proc.kill('SIGKILL');
    await a.exited;
    expect(a.proc.signalCode).toBe('SIGKILL');
    const abandoned = await heldByA();
    // The kill really left work behind: cells in progress under A's claim, their credits
    // held, and a question to the model whose answer A never read.
    expect(abandoned.length).toBeGreaterThan(0);
    expect(abandoned.every((c) => c.hold_id)).toBe(true);
    await until('the model to see A go', async () => (model.abandoned >= 1 ? true : null), 5_000);
    model.open();

    // B takes A's cells over once their lease (2 s) runs out, and finishes the run alone.
    const abandonedIds = abandoned.map((c) => c.id);
    const takenOverAt = await until("B to take over A's cells", async () => {
      const rows = await h.db.query<{ n: number }>(
        `SELECT count(*)::int AS n FROM cells WHERE id = ANY($1::text[])
            AND (claim_id IS NULL OR claim_id NOT LIKE $2)`,
        [abandonedIds, `${claimPrefix}%`],
      );
      return rows[0]!.n > 0 ? Date.now() : null;
    });
    const run = await x.waitRun(t, runId, 60_000);
    const finishedAt = Date.now();
    console.log(
      `worker A killed holding ${abandoned.length} cells (${model.abandoned} model request(s) cut off); ` +
        `taken over after ${takenOverAt - killedAt} ms, run finished ${finishedAt - killedAt} ms after the kill; ` +
        `${model.requests} model requests for ${DOCS * FIELDS.length} cells`,
    );
    if (run.status !== 'SUCCESS') {
      const ended = (await x.cells(t)).map((c) => `${c.status} ${c.statusText ?? ''}`);
      throw new Error(
        `run ${run.status}: ${ended.join('; ')}\nworker B:\n${b.output()}\nworker A:\n${a.output()}`,
      );
    }
    expect(run).toMatchObject({ pendingCells: 0, totalCells: DOCS * FIELDS.length });
    expect(b.proc.exitCode).toBeNull(); // B lived through it all

    // Every cell SUCCESS with its own document's value; one fact each.
    const cells = await x.cells(t);
    expect(cells).toHaveLength(DOCS * FIELDS.length);
    for (const c of cells) {
      const d = rows.indexOf(c.rowId);
      const f = columns.indexOf(c.columnId);
      expect(c, `${c.id}`).toMatchObject({
        status: 'SUCCESS',
        value: { type: 'text_quote', value: fieldValue(d, f) },
      });
      expect(c.citations[0]).toMatchObject({ fileId: fileIds[d] });
    }
    const facts = await h.db.query<{ cell_id: string; n: number }>(
      `SELECT c.id AS cell_id, count(f.id)::int AS n FROM cells c LEFT JOIN cell_facts f ON f.cell_id = c.id
        WHERE c.run_id = $1 GROUP BY c.id`,
      [runId],
    );
    expect(facts.filter((r) => r.n !== 1)).toEqual([]);
    // A's cells were started twice (A, then B); every other cell once.
    const attempts = await h.db.query<{ id: string; attempts: number }>(
      'SELECT id, attempts FROM cells WHERE run_id = $1',
      [runId],
    );
    for (const c of attempts) expect(c.attempts, c.id).toBe(abandonedIds.includes(c.id) ? 2 : 1);

    // Holds: exactly one captured per cell; A's abandoned holds released; none left held.
    const holds = await h.db.query<{ id: string; cell_id: string; state: string; amount: number }>(
      'SELECT id, cell_id, state, amount FROM credit_holds WHERE run_id = $1',
      [runId],
    );
    expect(holds.filter((x) => x.state === 'held')).toEqual([]);
    for (const c of cells) {
      const mine = holds.filter((x) => x.cell_id === c.id);
      expect(
        mine.filter((x) => x.state === 'captured'),
        c.id,
      ).toHaveLength(1);
      expect(
        mine.filter((x) => x.state === 'released'),
        c.id,
      ).toHaveLength(abandonedIds.includes(c.id) ? 1 : 0);
    }
    const abandonedHolds = new Set(abandoned.map((c) => c.hold_id));
    expect(holds.filter((x) => abandonedHolds.has(x.id)).map((x) => x.state)).toEqual(
      abandoned.map(() => 'released'),
    );

    // The balance moved by exactly what was captured: each cell charged once, at its price.
    const captured = holds.filter((x) => x.state === 'captured').reduce((s, x) => s + x.amount, 0);
    expect(captured).toBe(preview.cost);
    expect(before - (await x.balance())).toBe(captured);
    const captures = await h.db.query<{ n: number }>(
      `SELECT count(*)::int AS n FROM credit_ledger l JOIN credit_holds x ON x.id = l.ref_id
        WHERE x.run_id = $1 AND l.reason = 'cell_capture'`,
      [runId],
    );
    expect(captures[0]!.n).toBe(DOCS * FIELDS.length);
    await expectLedgerInvariant(h.db, ws.id);

    expect(await b.stop('SIGTERM')).toBe(0);
  }, 120_000);
});
