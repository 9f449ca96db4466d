/**
 * Issue 16 item 3: @folio/client (packages/client) against the service as users run it, a child
 * process (`npm start`) on the embedded database or, with DATABASE_URL, on PostgreSQL: uploads
 * with byte progress, waitForJob, startRun/waitForRun, the paged list iterators, exportTable,
 * FolioError for JSON and plain-text refusals, and abort. Runs that must stay unfinished for the
 * abort test are on an in-process harness with no worker (real HTTP, nobody answers cells).
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import ExcelJS from 'exceljs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  type FetchLike,
  FolioClient,
  FolioError,
  type UploadProgress,
} from '../packages/client/src/index.ts';
import { type ServerProcess, startServerProcess } from './helpers/folio-server.ts';
import { type Harness, startHarness, type TestWorkspace } from './helpers/harness.ts';
import { seedFile } from './helpers/seed.ts';

const CORPUS = '/work/shared/corpus/extraction/invoices';
const PDFS = readdirSync(CORPUS)
  .filter((f) => f.endsWith('.pdf'))
  .sort()
  .map((f) => path.join(CORPUS, f));
/** A three-page invoice (nine page items: pdf, jpg and embedding_image per page). */
const THREE_PAGES = path.join(CORPUS, 'parsee_71906c46b8be.pdf');

/** A fetch that records every request it passes on. */
function countingFetch(): { fetch: FetchLike; calls: string[] } {
  const calls: string[] = [];
  return {
    calls,
    fetch: (input, init) => {
      const req = input instanceof Request ? input : null;
      calls.push(`${req?.method ?? init?.method ?? 'GET'} ${req?.url ?? String(input)}`);
      return globalThis.fetch(input, init);
    },
  };
}

const isAbort = (e: unknown) => e instanceof Error && e.name === 'AbortError';

/** Collects a promise's rejection (or fails the test if it resolves). */
async function rejection(p: Promise<unknown>): Promise<unknown> {
  try {
    await p;
  } catch (e) {
    return e;
  }
  throw new Error('expected a rejection');
}

describe('@folio/client against a server process', () => {
  let server: ServerProcess;
  let ws: { id: string; key: string; readKey: string };
  let client: FolioClient;
  const uploaded: { fileId: string; jobId: string }[] = [];

  beforeAll(async () => {
    server = await startServerProcess();
    ws = await server.workspace(2000);
    // No workspace id given: the client reads the key's own from GET /v2/me.
    client = new FolioClient({ baseUrl: server.baseUrl, apiKey: ws.key });
  });
  afterAll(async () => {
    await server?.stop();
  });

  it('discovers the workspace of the key', async () => {
    expect(await client.workspaceId()).toBe(ws.id);
    expect((await client.workspace()).balance).toBe(2000);
  });

  it('uploads a file by path with byte progress (monotonic, ends at the size) and waits for its job', async () => {
    const size = statSync(THREE_PAGES).size;
    const seen: UploadProgress[] = [];
    const job = await client.uploadFile(THREE_PAGES, { onProgress: (p) => seen.push(p) });
    expect(job).toMatchObject({ id: expect.stringMatching(/^dsj_/), fileId: expect.stringMatching(/^ds_/) });
    expect(seen.length).toBeGreaterThan(2); // 78 KB comes in more than one chunk
    expect(seen[0].loaded).toBe(0);
    for (let i = 1; i < seen.length; i++) expect(seen[i].loaded).toBeGreaterThanOrEqual(seen[i - 1].loaded);
    expect(seen.every((p) => p.total === size)).toBe(true);
    expect(seen.at(-1)).toEqual({ loaded: size, total: size });
    expect(seen.filter((p) => p.loaded === size)).toHaveLength(1);

    const polled: string[] = [];
    const done = await client.waitForJob(job.id, {
      intervalMs: 50,
      onProgress: (j) => polled.push(j.status),
    });
    expect(done.status).toBe('SUCCESS');
    expect(polled.at(-1)).toBe('SUCCESS');
    const file = await client.getFile(job.fileId!);
    expect(file).toMatchObject({ fileName: 'parsee_71906c46b8be.pdf', itemCount: 3, fileSize: size });
    uploaded.push({ fileId: job.fileId!, jobId: job.id });
  });

  it('uploads a Blob and a bare stream (size unknown until its end)', async () => {
    const bytes = readFileSync(PDFS[0]);
    const fromBlob = await client.uploadFile(new Blob([bytes], { type: 'application/pdf' }), {
      name: 'blob.pdf',
    });
    let last: UploadProgress | undefined;
    const chunks = [bytes.subarray(0, 10_000), bytes.subarray(10_000)];
    const stream = new ReadableStream<Uint8Array>({
      pull(controller) {
        const next = chunks.shift();
        if (next) controller.enqueue(new Uint8Array(next));
        else controller.close();
      },
    });
    const fromStream = await client.uploadFile(stream, {
      name: 'stream.pdf',
      onProgress: (p) => {
        last = p;
      },
    });
    expect(last).toEqual({ loaded: bytes.length, total: bytes.length });
    for (const job of [fromBlob, fromStream]) {
      expect((await client.waitForJob(job.id, { intervalMs: 50 })).status).toBe('SUCCESS');
      uploaded.push({ fileId: job.fileId!, jobId: job.id });
    }
    expect((await client.getFile(fromStream.fileId!)).fileName).toBe('stream.pdf');
  });

  it('iterates paged lists to the end: files, page items and jobs', async () => {
    const counted = countingFetch();
    const paging = new FolioClient({
      baseUrl: server.baseUrl,
      apiKey: ws.key,
      workspaceId: ws.id,
      fetch: counted.fetch,
    });
    const files = [];
    for await (const f of paging.files({ pageSize: 2 })) files.push(f.id);
    expect(files.sort()).toEqual(uploaded.map((u) => u.fileId).sort());
    expect(counted.calls.filter((c) => c.includes('/files?')).length).toBe(2); // 3 files, 2 a page

    const items = [];
    for await (const item of paging.fileItems(uploaded[0].fileId, { pageSize: 4, sort: 'col' }))
      items.push(item);
    expect(items).toHaveLength(9);
    expect(new Set(items.map((i) => i.id)).size).toBe(9);
    expect(counted.calls.filter((c) => c.includes('/items?')).length).toBe(3);

    const jobs = [];
    for await (const j of paging.jobs({ pageSize: 1 })) jobs.push(j.id);
    expect(jobs.sort()).toEqual(uploaded.map((u) => u.jobId).sort());

    // A consumer may stop early: no page past the one it is reading is fetched.
    counted.calls.length = 0;
    for await (const _ of paging.files({ pageSize: 1 })) break;
    expect(counted.calls).toHaveLength(1);
  });

  let tableId: string;
  it('previews, starts and waits for a run, with cell progress', async () => {
    const table = await client.createTable({ name: 'Invoices' });
    tableId = table.id;
    await client.addColumn(tableId, {
      name: 'Total',
      prompt: 'What is the total amount?',
      outputType: 'number',
    });
    await client.addColumn(tableId, {
      name: 'Date',
      prompt: 'What is the invoice date?',
      outputType: 'date',
    });
    for (const u of uploaded) await client.addRow(tableId, u.fileId);
    expect(await client.previewRun(tableId)).toMatchObject({ cells: 6, cost: 24, skippedRowIds: [] });

    const started = await client.startRun(tableId);
    expect(started.cells).toBe(6);
    const progress: { done: number; total: number }[] = [];
    const run = await client.waitForRun(tableId, started.run!.id, {
      intervalMs: 20,
      onProgress: ({ done, total }) => progress.push({ done, total }),
    });
    expect(run.status).toBe('SUCCESS');
    expect(progress.at(-1)).toEqual({ done: 6, total: 6 });
    for (let i = 1; i < progress.length; i++)
      expect(progress[i].done).toBeGreaterThanOrEqual(progress[i - 1].done);
  });

  it('streams a table export (CSV, JSON, XLSX)', async () => {
    const text = async (s: ReadableStream<Uint8Array>) => new Response(s).text();
    const raw = Buffer.from(
      await new Response(await client.exportTable(tableId, { format: 'csv', bom: true })).arrayBuffer(),
    );
    expect([...raw.subarray(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
    const lines = raw.subarray(3).toString('utf8').trim().split(/\r\n/);
    expect(lines[0]).toMatch(/Total.*Date/);
    expect(lines).toHaveLength(1 + uploaded.length);

    const json = JSON.parse(
      await text(await client.exportTable(tableId, { format: 'json', include: ['status'] })),
    );
    expect(json).toHaveLength(uploaded.length);
    expect(Object.keys(json[0])).toEqual(
      expect.arrayContaining(['Total', 'Total status', 'Date', 'Date status']),
    );

    const xlsx = await new Response(await client.exportTable(tableId, { format: 'xlsx' })).arrayBuffer();
    const book = new ExcelJS.Workbook();
    await book.xlsx.load(xlsx);
    expect(book.worksheets[0].actualRowCount).toBe(1 + uploaded.length);
  });

  it('turns a JSON refusal into FolioError with its status and the body error', async () => {
    const e = await rejection(client.getFile('ds_doesnotexist0000000000'));
    const raw = await fetch(`${server.baseUrl}/v2/workspaces/${ws.id}/files/ds_doesnotexist0000000000`, {
      headers: { 'x-api-key': ws.key },
    });
    expect(raw.headers.get('content-type')).toMatch(/^application\/json/);
    const body = (await raw.json()) as { success: boolean; error: string };
    expect(body.success).toBe(false);
    expect(e).toBeInstanceOf(FolioError);
    expect(e).toMatchObject({ status: 404, error: body.error, message: body.error, body });
  });

  it('turns a plain-text refusal (before the handler) into FolioError carrying the text', async () => {
    const stranger = new FolioClient({ baseUrl: server.baseUrl, apiKey: 'folio_not_a_real_key' });
    const e = await rejection(stranger.me());
    const raw = await fetch(`${server.baseUrl}/v2/me`, { headers: { 'x-api-key': 'folio_not_a_real_key' } });
    expect(raw.headers.get('content-type')).toMatch(/^text\/plain/);
    const text = (await raw.text()).trim();
    expect(e).toBeInstanceOf(FolioError);
    expect(e).toMatchObject({ status: 401, error: text, message: text });
    // A table the key cannot reach is a 404 before the handler: plain text as well.
    const missing = await rejection(client.getTable('rev_doesnotexist0000000'));
    const raw404 = await fetch(`${server.baseUrl}/v2/workspaces/${ws.id}/tables/rev_doesnotexist0000000`, {
      headers: { 'x-api-key': ws.key },
    });
    expect(missing).toMatchObject({ status: 404, error: (await raw404.text()).trim() });
    // A Read key is refused a write with 403.
    const reader = new FolioClient({ baseUrl: server.baseUrl, apiKey: ws.readKey });
    expect(await rejection(reader.createTable({ name: 'x' }))).toMatchObject({ status: 403 });
  });

  it('aborts an upload in flight: rejects AbortError, no request after, no file made', async () => {
    const counted = countingFetch();
    const aborting = new FolioClient({
      baseUrl: server.baseUrl,
      apiKey: ws.key,
      workspaceId: ws.id,
      fetch: counted.fetch,
    });
    const controller = new AbortController();
    let sent = 0;
    // A source that gives one chunk, then nothing until it is cancelled: the upload stays open.
    const stalled = new ReadableStream<Uint8Array>({
      pull(c) {
        if (sent++ === 0) c.enqueue(new Uint8Array(readFileSync(PDFS[1]).subarray(0, 20_000)));
        else return new Promise(() => {});
      },
    });
    const pending = aborting.uploadFile(stalled, {
      name: 'stalled.pdf',
      signal: controller.signal,
      onProgress: (p) => {
        if (p.loaded > 0) setTimeout(() => controller.abort(), 50);
      },
    });
    // The source never ends: only the abort can settle this promise.
    const e = await rejection(pending);
    expect(isAbort(e)).toBe(true);
    expect(counted.calls).toHaveLength(1);
    await new Promise((r) => setTimeout(r, 300));
    expect(counted.calls).toHaveLength(1);
    const names = [];
    for await (const f of client.files()) names.push(f.fileName);
    expect(names).not.toContain('stalled.pdf');

    // Already aborted: nothing is sent at all.
    const before = counted.calls.length;
    expect(isAbort(await rejection(aborting.uploadFile(PDFS[0], { signal: AbortSignal.abort() })))).toBe(
      true,
    );
    expect(counted.calls.length).toBe(before);
  });
});

describe('@folio/client waitForRun abort (harness with no worker: the run never finishes)', () => {
  let h: Harness;
  let ws: TestWorkspace;
  beforeAll(async () => {
    h = await startHarness();
    ws = await h.workspace({ credits: 100 });
  });
  afterAll(async () => {
    await h?.close();
  });

  it('stops polling at once and rejects AbortError; the run goes on until cancelled', async () => {
    const counted = countingFetch();
    const client = new FolioClient({ baseUrl: h.baseUrl, apiKey: ws.key, fetch: counted.fetch });
    const fileId = await seedFile(h.db, ws.id);
    const table = await client.createTable({ name: 'never runs' });
    await client.addColumn(table.id, { name: 'Q', prompt: 'What?' });
    await client.addRow(table.id, fileId);
    const started = await client.startRun(table.id);
    const runId = started.run!.id;

    const controller = new AbortController();
    const progress: string[] = [];
    const pending = client.waitForRun(table.id, runId, {
      signal: controller.signal,
      intervalMs: 20,
      onProgress: ({ run }) => {
        progress.push(run.status);
        if (progress.length === 3) controller.abort();
      },
    });
    const e = await rejection(pending);
    expect(isAbort(e)).toBe(true);
    expect(progress).toHaveLength(3);
    const polls = counted.calls.filter((c) => c.includes(`/runs/${runId}`)).length;
    await new Promise((r) => setTimeout(r, 300));
    expect(counted.calls.filter((c) => c.includes(`/runs/${runId}`)).length).toBe(polls);

    // Aborting before the first poll sends nothing.
    const before = counted.calls.length;
    expect(
      isAbort(await rejection(client.waitForRun(table.id, runId, { signal: AbortSignal.abort() }))),
    ).toBe(true);
    expect(counted.calls.length).toBe(before);

    expect((await client.getRun(table.id, runId)).status).not.toMatch(/SUCCESS|ERROR|CANCELED/);
    expect((await client.cancelRun(table.id, runId)).status).toBe('CANCELED');
  });
});
