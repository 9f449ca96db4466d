import { randomInt } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { expect } from 'vitest';
import type { Queryable } from '../../src/infra/db/database.ts';
import { newId } from '../../src/infra/ids.ts';
import { insertFile } from '../../src/infra/repos/files.ts';
import { type HoldRow, listHolds } from '../../src/infra/repos/holds.ts';
import { listLedger } from '../../src/infra/repos/ledger.ts';
import { findWorkspace } from '../../src/infra/repos/workspaces.ts';
import { makeTextPdf } from '../fixtures/pdf.ts';
import type { Harness, TestWorkspace } from './harness.ts';

// biome-ignore lint/suspicious/noExplicitAny: API bodies in tests are read loosely; assertions check their shape.
export type Json = Record<string, any>;

const tick = (ms = 25) => new Promise((res) => setTimeout(res, ms));

/** Polls `probe` until it returns something other than undefined; fails after `timeoutMs`. */
export async function until<T>(
  what: string,
  probe: () => Promise<T | undefined>,
  timeoutMs = 30_000,
): Promise<T> {
  const started = Date.now();
  for (;;) {
    const v = await probe();
    if (v !== undefined) return v;
    if (Date.now() - started > timeoutMs) throw new Error(`timed out waiting for ${what}`);
    await tick();
  }
}

/** `rowId|columnId`: one cell's place in a table. */
export const pair = (c: Json) => `${c.rowId}|${c.columnId}`;

/** Uploads a generated text PDF and waits for its ingest; returns the file id. */
export async function ingestText(
  h: Harness,
  ws: TestWorkspace,
  pages: string[][],
  name = 'doc.pdf',
): Promise<string> {
  const r = await h.upload(ws, { file: { data: await makeTextPdf(pages), name } });
  if (r.status !== 200) throw new Error(`upload: ${r.status} ${await r.text()}`);
  const job = ((await r.json()) as { data: { id: string; fileId: string } }).data;
  const done = await h.waitJob(ws, job.id, 120_000);
  if (done.status !== 'SUCCESS') throw new Error(`ingest: ${JSON.stringify(done)}`);
  return job.fileId;
}

export function api(h: Harness, ws: TestWorkspace) {
  const base = `/v2/workspaces/${ws.id}`;
  const call = async (
    method: 'GET' | 'POST' | 'PUT' | 'DELETE' | 'PATCH',
    url: string,
    body?: unknown,
    key = ws.key,
  ) => {
    const r = await h.request(method, `${base}${url}`, { key, body });
    // Rejections before the handler are plain text (section 7); the rest is JSON.
    const json = String(r.headers['content-type'] ?? '').includes('json');
    return { status: r.statusCode, body: json && r.body ? (JSON.parse(r.body) as Json) : {}, raw: r.body };
  };
  const must = async (method: 'GET' | 'POST' | 'PUT' | 'DELETE' | 'PATCH', url: string, body?: unknown) => {
    const r = await call(method, url, body);
    if (r.status !== 200) throw new Error(`${method} ${url}: ${r.status} ${r.raw}`);
    return r.body.data;
  };
  return {
    call,
    must,
    async table(name = 'runs', extra: Json = {}): Promise<string> {
      return (await must('POST', '/tables', { name, ...extra })).id;
    },
    async column(tableId: string, body: Json): Promise<Json> {
      return must('POST', `/tables/${tableId}/columns`, { name: body.prompt.slice(0, 40), ...body });
    },
    async fileRow(tableId: string, fileId: string): Promise<string> {
      return (await must('POST', `/tables/${tableId}/rows`, { subjectType: 'file', subjectId: fileId })).id;
    },
    async bundleRow(tableId: string, fileIds: string[]): Promise<{ rowId: string; bundleId: string }> {
      const b = await must('POST', '/bundles', { name: `bundle of ${fileIds.length}` });
      if (fileIds.length > 0) await must('POST', `/bundles/${b.id}/files`, { fileIds });
      const rowId = (
        await must('POST', `/tables/${tableId}/rows`, { subjectType: 'bundle', subjectId: b.id })
      ).id;
      return { rowId, bundleId: b.id };
    },
    /** Polls the run until it is finished (SUCCESS, ERROR or CANCELED). */
    async waitRun(tableId: string, runId: string, timeoutMs = 60_000): Promise<Json> {
      const started = Date.now();
      for (;;) {
        const run = await must('GET', `/tables/${tableId}/runs/${runId}`);
        if (['SUCCESS', 'ERROR', 'CANCELED'].includes(run.status)) return run;
        if (Date.now() - started > timeoutMs)
          throw new Error(`run ${runId} still ${run.status}: ${JSON.stringify(run)}`);
        await new Promise((res) => setTimeout(res, 50));
      }
    },
    async cells(tableId: string): Promise<Json[]> {
      return must('GET', `/tables/${tableId}/cells`);
    },
    /** Polls until no cell of the table is IN_QUEUE or IN_PROGRESS; returns the cells. */
    async settled(tableId: string, timeoutMs = 60_000): Promise<Json[]> {
      return until(
        `the cells of ${tableId} to settle`,
        async () => {
          const cells: Json[] = await must('GET', `/tables/${tableId}/cells`);
          return cells.some((c) => c.status === 'IN_QUEUE' || c.status === 'IN_PROGRESS') ? undefined : cells;
        },
        timeoutMs,
      );
    },
    /** GET …/runs/preview with the lists comma-separated, as the query takes them. */
    async preview(tableId: string, scope: { rowIds?: string[]; columnIds?: string[] } = {}) {
      const q = new URLSearchParams();
      if (scope.rowIds) q.set('rowIds', scope.rowIds.join(','));
      if (scope.columnIds) q.set('columnIds', scope.columnIds.join(','));
      const qs = q.toString();
      return call('GET', `/tables/${tableId}/runs/preview${qs ? `?${qs}` : ''}`);
    },
    async balance(): Promise<number> {
      return (await h.admin('GET', `/admin/workspaces/${ws.id}`)).json().data.balance;
    },
    /** The admin view of the workspace: balance, spendCap, monthSpend. */
    async wallet(): Promise<{ balance: number; spendCap: number | null; monthSpend: number }> {
      return (await h.admin('GET', `/admin/workspaces/${ws.id}`)).json().data;
    },
    /** Sets the balance exactly (admin grants, negative to take away) and the spend cap. */
    async setBudget(b: { balance?: number; spendCap?: number | null }): Promise<void> {
      if (b.balance !== undefined) {
        const have = (await h.admin('GET', `/admin/workspaces/${ws.id}`)).json().data.balance as number;
        if (have !== b.balance) {
          const r = await h.admin('POST', `/admin/workspaces/${ws.id}/credits`, { amount: b.balance - have });
          if (r.statusCode !== 200) throw new Error(`credits: ${r.statusCode} ${r.body}`);
        }
      }
      if (b.spendCap !== undefined) {
        const r = await h.admin('PATCH', `/admin/workspaces/${ws.id}`, { spendCap: b.spendCap });
        if (r.statusCode !== 200) throw new Error(`spendCap: ${r.statusCode} ${r.body}`);
      }
    },
  };
}

/**
 * A file record straight in the store in a given state: `processing` (its ingest not done),
 * or ready but `expiresAt` some time. No pages: a run must never read it.
 */
export async function seedFileIn(
  q: Queryable,
  workspaceId: string,
  opts: { state?: 'processing' | 'ready' | 'failed'; expiresAt?: number | null; name?: string } = {},
): Promise<string> {
  const id = newId('ds');
  const now = Date.now();
  await insertFile(q, {
    id,
    workspace_id: workspaceId,
    type: 'doc',
    file_name: opts.name ?? 'seeded.pdf',
    file_ext: 'pdf',
    mime_type: 'application/pdf',
    file_size: 1000,
    sha256: null,
    source_url: null,
    item_count: opts.state === 'processing' ? 0 : 1,
    state: opts.state ?? 'ready',
    expires_at: opts.expiresAt ?? null,
    deleted_at: null,
    created_at: now,
    updated_at: now,
  });
  return id;
}

/** Time passes for one file: its expiry (D8) is now in the past. */
export async function expireFile(q: Queryable, fileId: string): Promise<void> {
  await q.query('UPDATE files SET expires_at = $2 WHERE id = $1', [fileId, Date.now() - 1000]);
}

/** The credit holds of a workspace, by cell id. */
export async function holdsByCell(q: Queryable, workspaceId: string): Promise<Map<string, HoldRow[]>> {
  const out = new Map<string, HoldRow[]>();
  for (const hold of await listHolds(q, workspaceId)) {
    out.set(hold.cell_id, [...(out.get(hold.cell_id) ?? []), hold]);
  }
  return out;
}

// ---------------------------------------------------------------------------------------
// An OpenAI-compatible chat-completions server for ENGINE=openai runs. It answers every
// request with a text answer, or answers 500, or holds each request until `release()`.

export type FakeModelMode = 'answer' | 'hang' | '500';

export class FakeModel {
  readonly server = http.createServer((req, res) => this.#handle(req, res));
  url = '';
  mode: FakeModelMode = 'answer';
  /**
   * When set, `mode` applies only to requests whose body contains this text (a test's own
   * prompts); any other request, such as a late one for a cell another test's run gave up,
   * is answered at once.
   */
  only: string | null = null;
  /** Requests `mode` applied to since the last reset. */
  received = 0;
  /** Requests held in `hang` mode, not yet answered. */
  held: http.ServerResponse[] = [];
  /** What the model answers (a text_quote value). */
  answer = 'Acme Corp';

  async start(): Promise<void> {
    await new Promise<void>((r) => this.server.listen(0, '127.0.0.1', r));
    this.url = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}/v1`;
  }

  /** Settings for a harness whose runs ask this server. */
  env(extra: Record<string, string> = {}): Record<string, string> {
    return {
      ENGINE: 'openai',
      OPENAI_BASE_URL: this.url,
      OPENAI_MODEL: 'x',
      OPENAI_MAX_RETRIES: '0',
      ...extra,
    };
  }

  /** Answers every held request, and every later one. */
  release(): void {
    this.mode = 'answer';
    const held = this.held;
    this.held = [];
    for (const res of held) this.#reply(res);
  }

  reset(mode: FakeModelMode = 'answer', only: string | null = null): void {
    this.release();
    this.mode = mode;
    this.only = only;
    this.received = 0;
  }

  async stop(): Promise<void> {
    this.release();
    this.server.closeAllConnections();
    await new Promise((r) => this.server.close(r));
  }

  #handle(req: http.IncomingMessage, res: http.ServerResponse): void {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      if (req.method !== 'POST' || req.url !== '/v1/chat/completions') {
        res.writeHead(404).end();
        return;
      }
      if (this.only !== null && !Buffer.concat(chunks).toString('utf8').includes(this.only)) {
        this.#reply(res);
        return;
      }
      this.received++;
      if (this.mode === 'hang') {
        this.held.push(res);
        return;
      }
      if (this.mode === '500') {
        res
          .writeHead(500, { 'content-type': 'application/json' })
          .end(JSON.stringify({ error: { message: 'the upstream model crashed' } }));
        return;
      }
      this.#reply(res);
    });
  }

  #reply(res: http.ServerResponse): void {
    if (res.destroyed || res.writableEnded) return;
    const content = JSON.stringify({
      quotes: [{ page: 1, quote: this.answer }],
      value: this.answer,
      confidence: 0.9,
    });
    res.writeHead(200, { 'content-type': 'application/json' }).end(
      JSON.stringify({
        id: `chatcmpl-${randomInt(1e9)}`,
        object: 'chat.completion',
        created: Math.floor(Date.now() / 1000),
        model: 'x',
        choices: [{ index: 0, message: { role: 'assistant', content }, finish_reason: 'stop' }],
        usage: { prompt_tokens: 100, completion_tokens: 20, total_tokens: 120 },
      }),
    );
  }
}

/**
 * D4 / issue 6 point 7: balance = grants − captured charges − active holds (ingest charges
 * count as captured), the ledger sums to the balance, and no hold is settled twice.
 */
export async function expectLedgerInvariant(q: Queryable, workspaceId: string): Promise<void> {
  const w = await findWorkspace(q, workspaceId);
  const ledger = await listLedger(q, workspaceId);
  const holds = await listHolds(q, workspaceId);
  const sum = (xs: number[]) => xs.reduce((a, b) => a + b, 0);
  expect(sum(ledger.map((l) => l.amount))).toBe(w!.balance);
  const grants = sum(ledger.filter((l) => l.reason === 'grant').map((l) => l.amount));
  const otherCharges = sum(
    ledger.filter((l) => l.reason === 'ingest_page' || l.reason === 'search').map((l) => -l.amount),
  );
  const captured = sum(holds.filter((x) => x.state === 'captured').map((x) => x.amount));
  const active = sum(holds.filter((x) => x.state === 'held').map((x) => x.amount));
  expect(w!.balance).toBe(grants - otherCharges - captured - active);
  // Each hold: one hold row, at most one capture or release row.
  for (const hold of holds) {
    const rows = ledger.filter((l) => l.ref_id === hold.id);
    expect(rows.filter((l) => l.reason === 'cell_hold')).toHaveLength(1);
    expect(rows.filter((l) => l.reason !== 'cell_hold').length).toBe(hold.state === 'held' ? 0 : 1);
  }
}

/**
 * A one-page contract the local engine answers: effective date March `day`, 2021 (so
 * "What is the effective date?" gives 2021-03-<day>), a total price, parties and a governing law.
 */
export function contractPages(day = 3): string[][] {
  return [
    [
      'SERVICES AGREEMENT',
      `This Agreement is effective as of March ${day}, 2021 between Acme Corp and Beta LLC.`,
      `The total contract price is $${(12_000 + day * 100).toLocaleString('en-US')}.00 payable in two installments.`,
      'This Agreement shall be governed by the laws of the State of Delaware.',
    ],
  ];
}
