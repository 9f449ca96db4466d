import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loggerOptions } from '../src/infra/logger.ts';
import { type Harness, startHarness, type TestWorkspace } from './helpers/harness.ts';
import { logSink } from './helpers/log-sink.ts';

// interface.md section 1 (envelope), section 7 (errors), section 5.5 (no secrets in logs).
describe('HTTP basics', () => {
  let h: Harness;
  let ws: TestWorkspace;
  const { sink, lines: logLines } = logSink();

  beforeAll(async () => {
    h = await startHarness({}, { logger: { ...loggerOptions('trace'), stream: sink } });
    ws = await h.workspace();
  });
  afterAll(() => h.close());

  it('answers /healthz without a key', async () => {
    const r = await h.request('GET', '/healthz');
    expect(r.statusCode).toBe(200);
    expect(r.json()).toMatchObject({ success: true, total: 1, data: { status: 'ok' } });
  });

  it('serves an OpenAPI document generated from the route schemas, and a reference page', async () => {
    const doc = (await h.request('GET', '/openapi.json')).json();
    expect(doc.openapi).toMatch(/^3\./);
    const tables = doc.paths['/v2/workspaces/{workspaceId}/tables'];
    expect(tables.post.requestBody.content['application/json'].schema.properties.name).toMatchObject({
      minLength: 1,
      maxLength: 120,
    });
    expect(tables.get.responses['200']).toBeDefined();
    expect(doc.paths['/admin/workspaces']).toBeDefined();
    const page = await h.request('GET', '/docs/');
    expect(page.statusCode).toBe(200);
    expect(page.headers['content-type']).toMatch(/text\/html/);
  });

  it('answers unknown routes with 404 JSON', async () => {
    const r = await h.request('GET', '/v2/nothing/here', { key: ws.key });
    expect(r.statusCode).toBe(404);
    expect(r.json()).toEqual({ success: false, error: expect.any(String) });
  });

  it('answers malformed JSON with 400 JSON', async () => {
    const r = await h.request('POST', `/v2/workspaces/${ws.id}/tables`, {
      key: ws.key,
      body: '{"name": ',
      headers: { 'content-type': 'application/json' },
    });
    expect(r.statusCode).toBe(400);
    expect(r.json().success).toBe(false);
  });

  it('gives each response a request id, keeping a sane one from the caller', async () => {
    const r = await h.request('GET', '/healthz', { headers: { 'x-request-id': 'trace-123' } });
    expect(r.headers['x-request-id']).toBe('trace-123');
    const r2 = await h.request('GET', '/healthz', { headers: { 'x-request-id': 'bad id with spaces' } });
    expect(r2.headers['x-request-id']).toMatch(/^req_/);
  });

  it('never writes a key, an admin token or a share token into the logs', async () => {
    await h.request('GET', `/v2/workspaces/${ws.id}/tables`, { key: ws.key });
    await h.request('GET', `/v2/workspaces/${ws.id}/tables`, { key: `${ws.key}x` });
    await h.request('GET', `/v2/share/dsx_abc?token=v1.999.SECRETSIGNATURE`);
    const created = await h.admin('POST', `/admin/workspaces/${ws.id}/keys`, { level: 'read' });
    const all = logLines.join('');
    expect(all).toContain(ws.keyId); // the per-request child logger names the key id ...
    expect(all).not.toContain(ws.key.slice(-30)); // ... never its secret
    expect(all).not.toContain(created.json().data.key.slice(-30));
    expect(all).not.toContain('test-admin-token');
    expect(all).not.toContain('SECRETSIGNATURE');
  });
});

describe('server faults', () => {
  it('answer 500 with a bare message: no stack, no SQL', async () => {
    const h = await startHarness();
    const ws = await h.workspace();
    // Dropping the table under the running app makes every tables query fail inside Postgres.
    await h.db.query('ALTER TABLE extraction_tables RENAME TO extraction_tables_gone');
    const r = await h.request('GET', `/v2/workspaces/${ws.id}/tables`, { key: ws.key });
    expect(r.statusCode).toBe(500);
    expect(r.json()).toEqual({ success: false, error: 'Internal server error.' });
    expect(r.body).not.toMatch(/extraction_tables|SELECT|at .*\.ts/);
    await h.db.query('ALTER TABLE extraction_tables_gone RENAME TO extraction_tables');
    await h.close();
  });
});

describe('rate limit', () => {
  it('answers 429 in plain text per key, without wait-time headers (section 7, D3)', async () => {
    const h = await startHarness({ RATE_LIMIT_PER_MIN: '5' });
    const ws = await h.workspace();
    const url = `/v2/workspaces/${ws.id}/tables`;
    const codes: number[] = [];
    let last = null as Awaited<ReturnType<Harness['request']>> | null;
    for (let i = 0; i < 7; i++) {
      last = await h.request('GET', url, { key: ws.key });
      codes.push(last.statusCode);
    }
    expect(codes).toEqual([200, 200, 200, 200, 200, 429, 429]);
    expect(last!.headers['content-type']).toMatch(/^text\/plain/);
    expect(last!.headers['retry-after']).toBeUndefined();
    expect(Object.keys(last!.headers).filter((k) => k.startsWith('x-ratelimit'))).toEqual([]);
    // Another key of the same workspace has its own budget.
    expect((await h.request('GET', url, { key: ws.readKey })).statusCode).toBe(200);
    await h.close();
  });
});
