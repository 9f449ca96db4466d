import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Harness, startHarness, type TestWorkspace } from './helpers/harness.ts';

// interface.md section 5 (authentication) and section 7 (plain-text rejections before the handler).
describe('authentication and access', () => {
  let h: Harness;
  let ws: TestWorkspace;
  let other: TestWorkspace;
  let tableId: string;
  let otherTableId: string;

  beforeAll(async () => {
    h = await startHarness();
    ws = await h.workspace();
    other = await h.workspace();
    tableId = (
      await h.request('POST', `/v2/workspaces/${ws.id}/tables`, { key: ws.key, body: { name: 'mine' } })
    ).json().data.id;
    otherTableId = (
      await h.request('POST', `/v2/workspaces/${other.id}/tables`, {
        key: other.key,
        body: { name: 'theirs' },
      })
    ).json().data.id;
  });
  afterAll(() => h.close());

  it('gives byte-identical plain-text 401s for missing, unknown, malformed, expired and revoked keys (5.2)', async () => {
    const expired = (
      await h.admin('POST', `/admin/workspaces/${ws.id}/keys`, {
        level: 'read_write',
        expiresAt: Date.now() - 1000,
      })
    ).json().data;
    const revoked = (await h.admin('POST', `/admin/workspaces/${ws.id}/keys`, { level: 'read_write' })).json()
      .data;
    expect((await h.admin('DELETE', `/admin/keys/${revoked.id}`)).statusCode).toBe(200);
    // Same id as a real key but a wrong secret part.
    const forged =
      `${ws.key.slice(0, -4)}AAAA` === ws.key ? `${ws.key.slice(0, -4)}BBBB` : `${ws.key.slice(0, -4)}AAAA`;

    const url = `/v2/workspaces/${ws.id}/tables`;
    const responses = [
      await h.request('GET', url),
      await h.request('GET', url, {
        key: 'folio_unknownunknownunkn_0000000000000000000000000000000000000000000',
      }),
      await h.request('GET', url, { key: 'not-a-key' }),
      await h.request('GET', url, { key: forged }),
      await h.request('GET', url, { key: expired.key }),
      await h.request('GET', url, { key: revoked.key }),
    ];
    for (const r of responses) {
      expect(r.statusCode).toBe(401);
      expect(r.headers['content-type']).toMatch(/^text\/plain/);
      expect(r.body).toBe(responses[0].body);
    }
    expect(responses[0].body.length).toBeGreaterThan(0);
  });

  it('a key that has not expired yet still works', async () => {
    const later = (
      await h.admin('POST', `/admin/workspaces/${ws.id}/keys`, {
        level: 'read',
        expiresAt: Date.now() + 60_000,
      })
    ).json().data;
    expect((await h.request('GET', `/v2/workspaces/${ws.id}/tables`, { key: later.key })).statusCode).toBe(
      200,
    );
  });

  it('answers 403 in plain text when a read key calls a write route (5.3)', async () => {
    const r = await h.request('POST', `/v2/workspaces/${ws.id}/tables`, {
      key: ws.readKey,
      body: { name: 'x' },
    });
    expect(r.statusCode).toBe(403);
    expect(r.headers['content-type']).toMatch(/^text\/plain/);
    for (const [method, url] of [
      ['PATCH', `/v2/workspaces/${ws.id}/tables/${tableId}`],
      ['DELETE', `/v2/workspaces/${ws.id}/tables/${tableId}`],
    ] as const) {
      expect((await h.request(method, url, { key: ws.readKey, body: {} })).statusCode).toBe(403);
    }
    // The read key still reads.
    expect(
      (await h.request('GET', `/v2/workspaces/${ws.id}/tables/${tableId}`, { key: ws.readKey })).statusCode,
    ).toBe(200);
  });

  it('answers 404 in plain text for a workspace or table the key cannot reach, as for an absent one (5.4)', async () => {
    const cases = [
      ['GET', `/v2/workspaces/${other.id}/tables`],
      ['GET', `/v2/workspaces/wks_doesnotexist000000000/tables`],
      ['GET', `/v2/workspaces/${ws.id}/tables/${otherTableId}`],
      ['GET', `/v2/workspaces/${ws.id}/tables/rev_doesnotexist000000000`],
      ['PATCH', `/v2/workspaces/${ws.id}/tables/${otherTableId}`],
      ['GET', `/v2/workspaces/${other.id}/tables/${otherTableId}`],
    ] as const;
    const bodies = new Set<string>();
    for (const [method, url] of cases) {
      const r = await h.request(method, url, {
        key: ws.key,
        body: method === 'PATCH' ? { name: 'x' } : undefined,
      });
      expect(r.statusCode, url).toBe(404);
      expect(r.headers['content-type']).toMatch(/^text\/plain/);
      bodies.add(r.body.replace(/Workspace|Table/, 'X'));
    }
    expect(bodies.size).toBe(1);
  });

  it('prefers 404 over 403: a read key on another workspace write route learns nothing', async () => {
    const r = await h.request('POST', `/v2/workspaces/${other.id}/tables`, {
      key: ws.readKey,
      body: { name: 'x' },
    });
    expect(r.statusCode).toBe(404);
  });

  it('checks the key before validating the body', async () => {
    const r = await h.request('POST', `/v2/workspaces/${ws.id}/tables`, { body: { name: '' } });
    expect(r.statusCode).toBe(401);
  });

  it('records when a key was last used', async () => {
    const rows = await h.db.query<{ last_used_at: number | null }>(
      'SELECT last_used_at FROM api_keys WHERE id = $1',
      [ws.keyId],
    );
    expect(rows[0].last_used_at).toBeGreaterThan(Date.now() - 60_000);
  });
});
