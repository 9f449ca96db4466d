import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Harness, startHarness, type TestWorkspace } from './helpers/harness.ts';

// Issue 8: what a client holding only a key needs to find its workspace (GET /v2/me), and
// the workspace record with balance and month spend (GET /v2/workspaces/:workspaceId).
describe('GET /v2/me and GET /v2/workspaces/:workspaceId (extensions for the web app)', () => {
  let h: Harness;
  let ws: TestWorkspace;
  let other: TestWorkspace;
  beforeAll(async () => {
    h = await startHarness();
    ws = await h.workspace({ credits: 250, spendCap: 900 });
    other = await h.workspace({ credits: 5 });
  });
  afterAll(() => h?.close());

  it('tells a key its id, workspace and level', async () => {
    const rw = await h.request('GET', '/v2/me', { key: ws.key });
    expect(rw.statusCode).toBe(200);
    expect(rw.json()).toEqual({
      success: true,
      total: 1,
      data: { keyId: ws.keyId, workspaceId: ws.id, level: 'read_write' },
    });
    const ro = await h.request('GET', '/v2/me', { key: ws.readKey });
    expect(ro.json().data).toEqual({ keyId: ws.readKeyId, workspaceId: ws.id, level: 'read' });
  });

  it('refuses a missing or unknown key with the same plain-text 401', async () => {
    const none = await h.request('GET', '/v2/me');
    const bad = await h.request('GET', '/v2/me', { key: 'folio_nope' });
    expect(none.statusCode).toBe(401);
    expect(bad.statusCode).toBe(401);
    expect(none.headers['content-type']).toMatch(/^text\/plain/);
    expect(bad.body).toBe(none.body);
  });

  it('shows the workspace with balance, spend cap and month spend to a Read key', async () => {
    for (const key of [ws.key, ws.readKey]) {
      const r = await h.request('GET', `/v2/workspaces/${ws.id}`, { key });
      expect(r.statusCode).toBe(200);
      expect(r.json().data).toMatchObject({
        id: ws.id,
        name: 'test',
        tier: 'silver',
        balance: 250,
        spendCap: 900,
        monthSpend: 0,
      });
    }
    // The same numbers the admin API shows.
    const admin = (await h.admin('GET', `/admin/workspaces/${ws.id}`)).json().data;
    const mine = (await h.request('GET', `/v2/workspaces/${ws.id}`, { key: ws.key })).json().data;
    expect(mine).toEqual(admin);
  });

  it('answers 404 for another workspace, without revealing it', async () => {
    const r = await h.request('GET', `/v2/workspaces/${other.id}`, { key: ws.key });
    expect(r.statusCode).toBe(404);
    const missing = await h.request('GET', '/v2/workspaces/wks_doesnotexist', { key: ws.key });
    expect(missing.statusCode).toBe(404);
    expect(missing.body).toBe(r.body);
  });

  it('is listed in the OpenAPI document', async () => {
    const doc = (await h.request('GET', '/openapi.json')).json();
    expect(doc.paths['/v2/me'].get).toBeDefined();
    expect(doc.paths['/v2/workspaces/{workspaceId}'].get).toBeDefined();
  });
});
