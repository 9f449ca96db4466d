import { readdir } from 'node:fs/promises';
import { connect, type Socket } from 'node:net';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loggerOptions } from '../src/infra/logger.ts';
import { makeTextPdf } from './fixtures/pdf.ts';
import { type Harness, startHarness, type TestWorkspace } from './helpers/harness.ts';
import { logSink } from './helpers/log-sink.ts';

interface RawResponse {
  status: number;
  headers: string;
  body: string;
}

/** An HTTP/1.1 exchange over a bare socket; resolves once the server has closed the connection. */
function openRequest(port: number) {
  const socket: Socket = connect(port, '127.0.0.1');
  const chunks: Buffer[] = [];
  socket.on('data', (c) => chunks.push(c));
  socket.on('error', () => {});
  const closed = new Promise<RawResponse>((resolve) => {
    socket.on('close', () => {
      const text = Buffer.concat(chunks).toString('utf8');
      const [head, ...rest] = text.split('\r\n\r\n');
      resolve({
        status: Number(/^HTTP\/1\.1 (\d{3})/.exec(head)?.[1] ?? 0),
        headers: head,
        body: rest.join('\r\n\r\n'),
      });
    });
  });
  const write = (data: string | Uint8Array) =>
    new Promise<void>((resolve) => {
      if (socket.destroyed) return resolve();
      socket.write(data, () => resolve());
    });
  return { socket, write, closed };
}

function head(method: string, url: string, headers: Record<string, string | number>): string {
  const lines = Object.entries(headers).map(([k, v]) => `${k}: ${v}`);
  return [`${method} ${url} HTTP/1.1`, 'host: 127.0.0.1', ...lines, '', ''].join('\r\n');
}

function multipart(boundary: string, file: Uint8Array, name: string): Buffer {
  return Buffer.concat([
    Buffer.from(
      `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${name}"\r\n` +
        'Content-Type: application/octet-stream\r\n\r\n',
    ),
    Buffer.from(file),
    Buffer.from(`\r\n--${boundary}--\r\n`),
  ]);
}

async function spooledFiles(h: Harness): Promise<string[]> {
  return readdir(path.join(h.config.dataDir, 'tmp')).catch(() => []);
}

// Issue 15 F5 (item 4): request bodies that stall answer 408 and close; a stalled upload
// leaves no spooled file; a slow upload that keeps moving is not cut. No wall-clock
// assertions: statuses, bodies and closure only.
describe('request body timeouts (issue 15 F5)', () => {
  const IDLE_MS = 800;
  const BODY_MS = 2_000;
  let h: Harness;
  let ws: TestWorkspace;
  let port: number;
  const { sink, lines: logLines } = logSink();

  beforeAll(async () => {
    h = await startHarness(
      { REQUEST_IDLE_TIMEOUT_MS: String(IDLE_MS), REQUEST_BODY_TIMEOUT_MS: String(BODY_MS) },
      { logger: { ...loggerOptions('info'), stream: sink } },
    );
    ws = await h.workspace();
    port = h.config.port;
  });
  afterAll(() => h.close());

  it('a request that declares a body and never sends it answers 408 in plain text and closes (F5)', async () => {
    const c = openRequest(port);
    await c.write(
      head('POST', `/v2/workspaces/${ws.id}/tables`, {
        'x-api-key': ws.key,
        'content-type': 'application/json',
        'content-length': 100,
      }),
    );
    const r = await c.closed;
    expect(r.status).toBe(408);
    expect(r.headers).toMatch(/content-type: text\/plain/i);
    expect(r.headers).toMatch(/connection: close/i);
    expect(r.body).toMatch(/timeout/i);
    // Nothing was created from the missing body.
    const tables = await h.request('GET', `/v2/workspaces/${ws.id}/tables`, { key: ws.key });
    expect(tables.json().total).toBe(0);
  });

  it('an upload that stalls mid-body answers 408, closes, and leaves no spooled file (F5)', async () => {
    const boundary = 'stall0123456789';
    const body = multipart(boundary, Buffer.alloc(256 * 1024, 7), 'big.pdf');
    const c = openRequest(port);
    await c.write(
      head('POST', `/v2/workspaces/${ws.id}/files`, {
        'x-api-key': ws.key,
        'content-type': `multipart/form-data; boundary=${boundary}`,
        'content-length': body.length,
      }),
    );
    // A trickle of the first 64 KiB, then nothing more.
    for (let sent = 0; sent < 64 * 1024; sent += 16 * 1024) {
      await c.write(body.subarray(sent, sent + 16 * 1024));
      await sleep(50);
    }
    const r = await c.closed;
    expect(r.status).toBe(408);
    expect(r.body).toMatch(/timeout/i);
    await expect.poll(() => spooledFiles(h), { timeout: 10_000 }).toEqual([]);
    const files = await h.request('GET', `/v2/workspaces/${ws.id}/files`, { key: ws.key });
    expect(files.json().total).toBe(0);
  });

  it('a slow upload that keeps moving, longer than the idle and body timeouts, succeeds (F5)', async () => {
    const pdf = await makeTextPdf([['A slow but steady upload.']]);
    const boundary = 'steady0123456789';
    const body = multipart(boundary, pdf, 'steady.pdf');
    const c = openRequest(port);
    await c.write(
      head('POST', `/v2/workspaces/${ws.id}/files`, {
        'x-api-key': ws.key,
        'content-type': `multipart/form-data; boundary=${boundary}`,
        'content-length': body.length,
        connection: 'close',
      }),
    );
    // Pieces spaced at a quarter of the idle timeout, spread over more than the body
    // timeout (which does not apply to uploads) and many idle periods.
    const pieces = Math.ceil((BODY_MS * 1.5) / (IDLE_MS / 4));
    const size = Math.ceil(body.length / pieces);
    for (let sent = 0; sent < body.length; sent += size) {
      await c.write(body.subarray(sent, sent + size));
      await sleep(IDLE_MS / 4);
    }
    const r = await c.closed;
    expect(r.status).toBe(200);
    expect(JSON.parse(r.body).data.status).toBe('NOT_STARTED');
  });

  it('a JSON body trickled past the body timeout answers 408 and closes (F5)', async () => {
    const json = JSON.stringify({ name: 'a table sent one byte at a time, far too slowly' });
    const c = openRequest(port);
    await c.write(
      head('POST', `/v2/workspaces/${ws.id}/tables`, {
        'x-api-key': ws.key,
        'content-type': 'application/json',
        'content-length': Buffer.byteLength(json),
      }),
    );
    // Each byte comes well within the idle timeout; the whole never does within the body timeout.
    for (const ch of json) {
      if (c.socket.destroyed) break;
      await c.write(ch);
      await sleep(IDLE_MS / 4);
    }
    const r = await c.closed;
    expect(r.status).toBe(408);
    const tables = await h.request('GET', `/v2/workspaces/${ws.id}/tables`, { key: ws.key });
    expect(tables.json().total).toBe(0);
  });

  it('a request sent whole is untouched, and keep-alive connections still work (F5)', async () => {
    const first = await fetch(`${h.baseUrl}/v2/workspaces/${ws.id}/tables`, {
      method: 'POST',
      headers: { 'x-api-key': ws.key, 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'whole' }),
    });
    expect(first.status).toBe(200);
    const list = await fetch(`${h.baseUrl}/v2/workspaces/${ws.id}/tables`, {
      headers: { 'x-api-key': ws.key },
    });
    expect(list.status).toBe(200);
    expect(((await list.json()) as { total: number }).total).toBe(1);
  });

  it('a timed-out request logs one info line, not the aborted handler as an error (F5)', () => {
    const timedOut = logLines.filter((l) => l.includes('request body timed out'));
    expect(timedOut.length).toBeGreaterThanOrEqual(3);
    expect(logLines.filter((l) => JSON.parse(l).level >= 40)).toEqual([]);
  });

  it('hands the headers and whole-request limits to Node (F5)', () => {
    expect(h.app.server.requestTimeout).toBe(h.config.uploadTimeoutMs);
    expect(h.app.server.headersTimeout).toBe(BODY_MS);
  });
});
