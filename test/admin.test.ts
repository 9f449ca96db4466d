import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN_TOKEN, type Harness, startHarness } from './helpers/harness.ts';

// decisions.md D1: the admin API.
describe('admin API', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness();
  });
  afterAll(() => h.close());

  it('creates a workspace with defaults: silver, no credits, no cap', async () => {
    const r = await h.admin('POST', '/admin/workspaces', { name: 'Acme' });
    expect(r.statusCode).toBe(200);
    const body = r.json();
    expect(body).toMatchObject({ success: true, total: 1 });
    expect(body.data).toMatchObject({
      name: 'Acme',
      tier: 'silver',
      balance: 0,
      spendCap: null,
      monthSpend: 0,
    });
    expect(body.data.id).toMatch(/^wks_[0-9A-Za-z]{20}$/);
    expect(typeof body.data.createdAt).toBe('number');
  });

  it('creates with tier, credits and cap, and shows the workspace', async () => {
    const created = (
      await h.admin('POST', '/admin/workspaces', { name: 'Gold', tier: 'gold', credits: 250, spendCap: 1000 })
    ).json().data;
    const shown = await h.admin('GET', `/admin/workspaces/${created.id}`);
    expect(shown.json().data).toMatchObject({ tier: 'gold', balance: 250, spendCap: 1000 });
  });

  it('refuses bad input with 400 JSON naming every problem', async () => {
    const r = await h.admin('POST', '/admin/workspaces', { name: '', tier: 'platinum', credits: -5 });
    expect(r.statusCode).toBe(400);
    expect(r.json().success).toBe(false);
    expect(r.json().error).toMatch(/name/);
    expect(r.json().error).toMatch(/tier/);
    expect(r.json().error).toMatch(/credits/);
  });

  it('grants and removes credits; the balance stops at 0; every change is a ledger row', async () => {
    const ws = (await h.admin('POST', '/admin/workspaces', { name: 'Ledger', credits: 10 })).json().data;
    expect(
      (await h.admin('POST', `/admin/workspaces/${ws.id}/credits`, { amount: 5 })).json().data.balance,
    ).toBe(15);
    expect(
      (await h.admin('POST', `/admin/workspaces/${ws.id}/credits`, { amount: -40 })).json().data.balance,
    ).toBe(0);
    expect((await h.admin('POST', `/admin/workspaces/${ws.id}/credits`, { amount: 1.5 })).statusCode).toBe(
      400,
    );

    const ledger = await h.db.query<{ amount: number; balance_after: number }>(
      'SELECT amount, balance_after FROM credit_ledger WHERE workspace_id = $1 ORDER BY created_at, balance_after DESC',
      [ws.id],
    );
    expect(ledger.map((l) => [l.amount, l.balance_after])).toEqual([
      [10, 10],
      [5, 15],
      [-15, 0],
    ]);
    const sum = ledger.reduce((a, l) => a + l.amount, 0);
    expect(sum).toBe((await h.admin('GET', `/admin/workspaces/${ws.id}`)).json().data.balance);
  });

  it('patches name, tier and spend cap', async () => {
    const ws = (await h.admin('POST', '/admin/workspaces', { name: 'Old', spendCap: 5 })).json().data;
    const r = await h.admin('PATCH', `/admin/workspaces/${ws.id}`, {
      name: 'New',
      tier: 'starter',
      spendCap: null,
    });
    expect(r.json().data).toMatchObject({ name: 'New', tier: 'starter', spendCap: null });
  });

  it('creates keys shown once, stored only as a hash, and revokes them', async () => {
    const ws = (await h.admin('POST', '/admin/workspaces', { name: 'Keys' })).json().data;
    const r = await h.admin('POST', `/admin/workspaces/${ws.id}/keys`, { level: 'read' });
    expect(r.statusCode).toBe(200);
    expect(r.headers['cache-control']).toBe('no-store');
    const key = r.json().data;
    expect(key).toMatchObject({ level: 'read', expiresAt: null, workspaceId: ws.id });
    expect(key.id).toMatch(/^wkskey_[0-9A-Za-z]{20}$/);
    expect(key.key.length).toBeGreaterThanOrEqual(43);

    const stored = await h.db.query<Record<string, unknown>>('SELECT * FROM api_keys WHERE id = $1', [
      key.id,
    ]);
    expect(JSON.stringify(stored)).not.toContain(key.key.slice(-20));

    const url = `/v2/workspaces/${ws.id}/tables`;
    expect((await h.request('GET', url, { key: key.key })).statusCode).toBe(200);
    const revoked = await h.admin('DELETE', `/admin/keys/${key.id}`);
    expect(revoked.json().data.revokedAt).toBeGreaterThan(0);
    expect((await h.request('GET', url, { key: key.key })).statusCode).toBe(401);
    expect((await h.admin('DELETE', '/admin/keys/wkskey_nothere0000000000000')).statusCode).toBe(404);
  });

  it('answers 404 JSON for an unknown workspace', async () => {
    const r = await h.admin('GET', '/admin/workspaces/wks_nothere0000000000000');
    expect(r.statusCode).toBe(404);
    expect(r.json()).toEqual({ success: false, error: expect.any(String) });
    expect(
      (await h.admin('POST', '/admin/workspaces/wks_nothere0000000000000/keys', { level: 'read' }))
        .statusCode,
    ).toBe(404);
  });

  it('refuses a wrong or missing admin token with 401 plain text', async () => {
    for (const headers of [{}, { 'x-admin-token': `${ADMIN_TOKEN}x` }] as Record<string, string>[]) {
      const r = await h.request('POST', '/admin/workspaces', { body: { name: 'x' }, headers });
      expect(r.statusCode).toBe(401);
      expect(r.headers['content-type']).toMatch(/^text\/plain/);
    }
  });

  it('an API key is not an admin token', async () => {
    const ws = await h.workspace();
    const r = await h.request('GET', `/admin/workspaces/${ws.id}`, { key: ws.key });
    expect(r.statusCode).toBe(401);
  });
});

describe('admin API without ADMIN_TOKEN', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness({ ADMIN_TOKEN: '' });
  });
  afterAll(() => h.close());

  it('does not exist: every admin route answers 404, even with a token', async () => {
    for (const [method, url] of [
      ['POST', '/admin/workspaces'],
      ['GET', '/admin/workspaces/wks_x'],
      ['PATCH', '/admin/workspaces/wks_x'],
      ['POST', '/admin/workspaces/wks_x/credits'],
      ['POST', '/admin/workspaces/wks_x/keys'],
      ['DELETE', '/admin/keys/wkskey_x'],
    ] as const) {
      const r = await h.request(method, url, { body: {}, headers: { 'x-admin-token': ADMIN_TOKEN } });
      expect(r.statusCode, `${method} ${url}`).toBe(404);
    }
  });
});
