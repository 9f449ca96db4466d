/**
 * Issue 17 item 1: signed webhooks, against a real local receiver.
 * - Signatures verified with an independent implementation of the Standard Webhooks check
 *   (the `standardwebhooks` package, not our signing code).
 * - Events from real uploads (job.succeeded, job.failed), runs (run.finished) and overrides
 *   (cell.override_set, cell.override_cleared); none for another workspace.
 * - Retries after 500s and timeouts, and the 24-hour disable rule, on an injected clock.
 * - Deliveries list their attempts; a delivery can be re-sent; the URL guard holds.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { Webhook as StandardWebhook } from 'standardwebhooks';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { makeTextPdf } from './fixtures/pdf.ts';
import { type Harness, startHarness, type TestWorkspace } from './helpers/harness.ts';
import { api, type Json, until } from './helpers/runs.ts';
import { seedCell, seedFile } from './helpers/seed.ts';

interface Received {
  headers: Record<string, string>;
  body: string;
  json: Json;
}

/** A receiver on 127.0.0.1 that answers as told: 200, 500, or never (a hang). */
function receiver() {
  const got: Received[] = [];
  let mode: 'ok' | '500' | 'hang' = 'ok';
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const body = Buffer.concat(chunks).toString('utf8');
      got.push({ headers: req.headers as Record<string, string>, body, json: JSON.parse(body) as Json });
      if (mode === 'hang') return; // never answers; the sender's timeout ends it
      res.statusCode = mode === 'ok' ? 200 : 500;
      res.end(mode === 'ok' ? 'thanks' : 'boom');
    });
  });
  return {
    got,
    setMode: (m: typeof mode) => {
      mode = m;
    },
    async listen() {
      await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
      return `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`;
    },
    close: () => {
      server.closeAllConnections();
      return new Promise<void>((r) => server.close(() => r()));
    },
  };
}

let offset = 0;

describe('webhooks (issue 17 item 1)', () => {
  let h: Harness;
  let ws: TestWorkspace;
  let other: TestWorkspace;
  const rx = receiver();
  const rxOther = receiver();
  let url: string;
  let otherUrl: string;

  beforeAll(async () => {
    h = await startHarness(
      { WEBHOOK_ALLOW_PRIVATE: 'true', WEBHOOK_TIMEOUT_MS: '400' },
      { worker: true, now: () => Date.now() + offset },
    );
    ws = await h.workspace({ credits: 10_000 });
    other = await h.workspace({ credits: 10_000 });
    url = await rx.listen();
    otherUrl = await rxOther.listen();
  });
  afterAll(async () => {
    await h?.close();
    await rx.close();
    await rxOther.close();
  });
  beforeEach(() => {
    rx.setMode('ok');
  });

  const hooks = (w: TestWorkspace = ws) => api(h, w);
  const create = async (w: TestWorkspace, target: string, events: string[]) => {
    const r = await hooks(w).call('POST', '/webhooks', { url: target, events });
    expect(r.status, r.raw).toBe(200);
    return r.body.data as Json;
  };
  const eventsOf = (type: string, w: TestWorkspace = ws, from = rx) =>
    from.got.filter((g) => g.json.type === type && g.json.data.workspaceId === w.id);

  it('creating shows the secret once; listing never does; a read key may list but not change', async () => {
    const hook = await create(ws, url, ['job.succeeded']);
    expect(hook).toMatchObject({ url, events: ['job.succeeded'], enabled: true, failingSince: null });
    expect(hook.secret).toMatch(/^whsec_[A-Za-z0-9+/]+=*$/);
    const listed = await hooks().must('GET', '/webhooks');
    expect(listed.find((w: Json) => w.id === hook.id)).not.toHaveProperty('secret');
    expect(JSON.stringify(listed)).not.toContain(hook.secret.slice(6));
    expect((await hooks().call('GET', '/webhooks', undefined, ws.readKey)).status).toBe(200);
    expect(
      (await hooks().call('POST', '/webhooks', { url, events: ['run.finished'] }, ws.readKey)).status,
    ).toBe(403);
    expect((await hooks().call('PATCH', `/webhooks/${hook.id}`, { enabled: false }, ws.readKey)).status).toBe(
      403,
    );
    expect((await hooks().call('POST', '/webhooks', { url, events: ['no.such'] })).status).toBe(400);
    await hooks().must('DELETE', `/webhooks/${hook.id}`);
    expect((await hooks().call('GET', `/webhooks/${hook.id}`)).status).toBe(404);
  });

  it('events from a real upload, run and overrides arrive signed (verified independently), with ids only', async () => {
    const hook = await create(ws, url, [
      'job.succeeded',
      'job.failed',
      'run.finished',
      'cell.override_set',
      'cell.override_cleared',
    ]);
    // Another workspace has its own endpoint; none of this workspace's events go there.
    await create(other, otherUrl, ['job.succeeded', 'job.failed', 'run.finished']);

    const good = await h.upload(ws, {
      file: { data: await makeTextPdf([['Invoice 7', 'Total 12.00']]), name: 'a.pdf' },
    });
    const job = ((await good.json()) as Json).data;
    await h.waitJob(ws, job.id);
    const bad = await h.upload(ws, {
      file: { data: Buffer.from('%PDF-1.4\nnot really a pdf'), name: 'b.pdf' },
    });
    const badJob = ((await bad.json()) as Json).data;
    await h.waitJob(ws, badJob.id);

    const a = hooks();
    const table = await a.table('hooks');
    await a.column(table, { prompt: 'What is the total?', outputType: 'text_quote' });
    const rowId = await a.fileRow(table, job.fileId);
    const run = (await a.must('POST', `/tables/${table}/runs`, {})).run;
    await a.waitRun(table, run.id);
    const col = (await a.must('POST', `/tables/${table}/columns`, { name: 'Note', prompt: 'Note?' })).id;
    const cellId = await seedCell(h.db, { tableId: table, rowId, columnId: col, columnVersion: 1 });
    await a.must('PUT', `/tables/${table}/cells/${cellId}/override`, {
      value: { type: 'text_quote', value: 'checked' },
    });
    await a.must('DELETE', `/tables/${table}/cells/${cellId}/override`);

    await until('five events', async () => (rx.got.length >= 5 ? true : undefined), 30_000);
    const verifier = new StandardWebhook(hook.secret);
    for (const g of rx.got) {
      expect(verifier.verify(g.body, g.headers)).toEqual(g.json);
      expect(g.headers['webhook-id']).toMatch(/^msg_/);
      // Never a share URL or a token.
      expect(g.body).not.toMatch(/token|share|https?:/i);
    }
    // A tampered body fails the same check.
    expect(() => verifier.verify(rx.got[0]!.body.replace('}', ' }'), rx.got[0]!.headers)).toThrow();

    expect(eventsOf('job.succeeded').map((g) => g.json.data)).toContainEqual(
      expect.objectContaining({ jobId: job.id, fileId: job.fileId, status: 'SUCCESS' }),
    );
    expect(eventsOf('job.failed').map((g) => g.json.data)).toContainEqual(
      expect.objectContaining({ jobId: badJob.id, status: 'ERROR' }),
    );
    expect(eventsOf('run.finished').map((g) => g.json.data)).toContainEqual(
      expect.objectContaining({ runId: run.id, tableId: table, status: 'SUCCESS' }),
    );
    expect(eventsOf('cell.override_set').map((g) => g.json.data)).toEqual([
      expect.objectContaining({ tableId: table, cellId, rowId, columnId: col }),
    ]);
    expect(eventsOf('cell.override_cleared')).toHaveLength(1);
    expect(rx.got.every((g) => g.json.data.workspaceId === ws.id)).toBe(true);
    expect(rxOther.got).toEqual([]);

    // The other workspace's own upload reaches only its own endpoint.
    const theirs = await h.upload(other, { file: { data: await makeTextPdf([['Other']]), name: 'c.pdf' } });
    await h.waitJob(other, ((await theirs.json()) as Json).data.id);
    await until('their event', async () => (rxOther.got.length >= 1 ? true : undefined));
    expect(rxOther.got.every((g) => g.json.data.workspaceId === other.id)).toBe(true);
    expect(rx.got.some((g) => g.json.data.workspaceId === other.id)).toBe(false);

    // Deliveries show each attempt; a delivery can be sent again with the same message id.
    const deliveries = (await a.call('GET', `/webhooks/${hook.id}/deliveries?limit=50`)).body;
    expect(deliveries.total).toBe(rx.got.length);
    for (const d of deliveries.data) {
      expect(d).toMatchObject({ status: 'succeeded', attempts: [{ statusCode: 200, error: null }] });
      expect(d.attempts[0].latencyMs).toBeGreaterThanOrEqual(0);
    }
    const first = deliveries.data.at(-1);
    const before = rx.got.length;
    await a.must('POST', `/webhooks/${hook.id}/deliveries/${first.id}/resend`);
    await until('the resend', async () => (rx.got.length > before ? true : undefined));
    expect(rx.got.at(-1)!.headers['webhook-id']).toBe(first.id);
    await a.must('DELETE', `/webhooks/${hook.id}`);
  });

  it('retries after 500s and timeouts with backoff, then succeeds; each attempt is recorded', async () => {
    rx.got.length = 0;
    const hook = await create(ws, url, ['cell.override_set']);
    const a = hooks();
    const table = await a.table('retries');
    const col = (await a.must('POST', `/tables/${table}/columns`, { name: 'N', prompt: 'N?' })).id;
    const rowId = await a.fileRow(table, await seedFile(h.db, ws.id));
    const cellId = await seedCell(h.db, { tableId: table, rowId, columnId: col, columnVersion: 1 });
    rx.setMode('500');
    await a.must('PUT', `/tables/${table}/cells/${cellId}/override`, {
      value: { type: 'text_quote', value: 'x' },
    });
    await until('first attempt', async () => (rx.got.length >= 1 ? true : undefined));
    // The retry waits (5 s); time moves on for it.
    rx.setMode('hang');
    offset += 10_000;
    await until('second attempt', async () => (rx.got.length >= 2 ? true : undefined));
    const attempts = async () => {
      const d = (await a.call('GET', `/webhooks/${hook.id}/deliveries`)).body.data[0];
      return d as Json;
    };
    await until('the timeout recorded', async () =>
      (await attempts()).attempts.length >= 2 ? true : undefined,
    );
    rx.setMode('ok');
    offset += 60_000;
    await until('third attempt', async () => (rx.got.length >= 3 ? true : undefined));
    const d = await until('delivered', async () => {
      const x = await attempts();
      return x.status === 'succeeded' ? x : undefined;
    });
    expect(d.attempts.map((t: Json) => [t.statusCode, t.error])).toEqual([
      [500, 'The endpoint answered HTTP 500.'],
      [null, 'No answer within 400 ms.'],
      [200, null],
    ]);
    // The same message each time: one id, receivers can drop repeats.
    expect(new Set(rx.got.map((g) => g.headers['webhook-id'])).size).toBe(1);
    expect((await a.must('GET', `/webhooks/${hook.id}`)).failingSince).toBeNull();
    await a.must('DELETE', `/webhooks/${hook.id}`);
  });

  it('an endpoint failing for 24 hours is disabled, gets nothing more, and comes back when enabled', async () => {
    rx.got.length = 0;
    const hook = await create(ws, url, ['cell.override_set']);
    const a = hooks();
    const table = await a.table('disable');
    const col = (await a.must('POST', `/tables/${table}/columns`, { name: 'N', prompt: 'N?' })).id;
    const rowId = await a.fileRow(table, await seedFile(h.db, ws.id));
    const cellId = await seedCell(h.db, { tableId: table, rowId, columnId: col, columnVersion: 1 });
    const put = (value: string) =>
      a.must('PUT', `/tables/${table}/cells/${cellId}/override`, { value: { type: 'text_quote', value } });
    rx.setMode('500');
    await put('one');
    await until('first failure', async () => (rx.got.length >= 1 ? true : undefined));
    const failing = await until('failing', async () => {
      const w = await a.must('GET', `/webhooks/${hook.id}`);
      return w.failingSince !== null ? w : undefined;
    });
    expect(failing.enabled).toBe(true);
    // A day of failures later (the retry falls due on the moved clock):
    offset += 24 * 3600_000 + 60_000;
    const disabled = await until(
      'disabled',
      async () => {
        const w = await a.must('GET', `/webhooks/${hook.id}`);
        return w.enabled ? undefined : w;
      },
      20_000,
    );
    expect(disabled.disabledReason).toMatch(/24 hours of failed deliveries/);
    const sent = rx.got.length;
    await put('two');
    // Nothing is queued for a disabled endpoint.
    const deliveries = (await a.call('GET', `/webhooks/${hook.id}/deliveries`)).body;
    expect(deliveries.data.map((d: Json) => d.status)).toEqual(['failed']);
    expect(rx.got.length).toBe(sent);
    // Turned on again: the failure clock starts afresh and events flow.
    rx.setMode('ok');
    const back = await a.must('PATCH', `/webhooks/${hook.id}`, { enabled: true });
    expect(back).toMatchObject({ enabled: true, failingSince: null, disabledReason: null });
    await put('three');
    await until('delivered again', async () => (rx.got.length > sent ? true : undefined));
    expect(rx.got.at(-1)!.json.type).toBe('cell.override_set');
  });

  it('a URL on a loopback or private address is refused unless WEBHOOK_ALLOW_PRIVATE', async () => {
    const strict = await startHarness();
    try {
      const w = await strict.workspace();
      for (const target of [
        'http://127.0.0.1:9/hook',
        'http://10.0.0.5/hook',
        'http://169.254.169.254/x',
        'ftp://example.com/x',
      ]) {
        const r = await api(strict, w).call('POST', '/webhooks', { url: target, events: ['run.finished'] });
        expect({ target, status: r.status }).toEqual({ target, status: 400 });
        expect(r.body.error).toEqual(expect.any(String));
      }
    } finally {
      await strict.close();
    }
  });
});
