import type { InjectOptions } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN_TOKEN, type Harness, startHarness, type TestWorkspace } from './helpers/harness.ts';

const LIMIT = 5;
const BAD_KEY = 'folio_unknownunknownunkn_0000000000000000000000000000000000000000000';

// Issue 15 F8 (item 7): failed authentications per source address answer 429 beyond
// AUTH_FAILURES_PER_MIN, in plain text with no wait-time header like the other 429s
// (interface.md section 7); other addresses are unaffected.
describe('failed-authentication throttling (issue 15 F8)', () => {
  let h: Harness;
  let ws: TestWorkspace;
  let url: string;
  /** The API's clock: the real one, moved forward by the test to end a window. */
  let offset = 0;

  const from = (
    remoteAddress: string,
    headers: Record<string, string> = {},
    method: InjectOptions['method'] = 'GET',
    path = url,
  ) => h.app.inject({ method, url: path, remoteAddress, headers });
  const withKey = (ip: string, key: string) => from(ip, { 'x-api-key': key });
  const asAdmin = (ip: string, token: string) =>
    from(ip, { 'x-admin-token': token }, 'GET', `/admin/workspaces/${ws.id}`);

  beforeAll(async () => {
    h = await startHarness({ AUTH_FAILURES_PER_MIN: String(LIMIT) }, { now: () => Date.now() + offset });
    ws = await h.workspace();
    url = `/v2/workspaces/${ws.id}/tables`;
  });
  afterAll(() => h.close());

  it('answers the failure past the limit with a plain-text 429 and no wait-time header (F8)', async () => {
    const codes: number[] = [];
    for (let i = 0; i < LIMIT; i++) codes.push((await withKey('10.0.0.1', `${BAD_KEY}${i}`)).statusCode);
    expect(codes).toEqual(Array(LIMIT).fill(401));
    const r = await withKey('10.0.0.1', BAD_KEY);
    expect(r.statusCode).toBe(429);
    expect(r.headers['content-type']).toMatch(/^text\/plain/);
    expect(r.body).toMatch(/too many requests/i);
    expect(r.headers['retry-after']).toBeUndefined();
    expect(Object.keys(r.headers).filter((k) => k.includes('ratelimit'))).toEqual([]);
  });

  it('a blocked address gets 429 even with a valid key, so its answers tell no key apart (F8)', async () => {
    expect((await withKey('10.0.0.1', ws.key)).statusCode).toBe(429);
    // Routes that need no credential are not throttled.
    expect((await from('10.0.0.1', {}, 'GET', '/healthz')).statusCode).toBe(200);
  });

  it('other addresses are unaffected: a valid key works and a wrong one is a plain 401 (F8)', async () => {
    expect((await withKey('10.0.0.2', ws.key)).statusCode).toBe(200);
    expect((await withKey('10.0.0.2', BAD_KEY)).statusCode).toBe(401);
    expect((await withKey('10.0.0.2', ws.readKey)).statusCode).toBe(200);
  });

  it('counts wrong admin tokens too, and API-key and admin failures together (F8)', async () => {
    for (let i = 0; i < LIMIT; i++)
      expect((await asAdmin('10.0.0.3', `${ADMIN_TOKEN}-wrong`)).statusCode).toBe(401);
    const blocked = await asAdmin('10.0.0.3', `${ADMIN_TOKEN}-wrong`);
    expect(blocked.statusCode).toBe(429);
    expect(blocked.headers['content-type']).toMatch(/^text\/plain/);
    expect((await asAdmin('10.0.0.3', ADMIN_TOKEN)).statusCode).toBe(429);
    expect((await asAdmin('10.0.0.4', ADMIN_TOKEN)).statusCode).toBe(200);

    // Mixed: some wrong keys, then wrong admin tokens, from one address.
    for (let i = 0; i < LIMIT - 2; i++) expect((await withKey('10.0.0.5', BAD_KEY)).statusCode).toBe(401);
    for (let i = 0; i < 2; i++)
      expect((await asAdmin('10.0.0.5', 'not-the-admin-token')).statusCode).toBe(401);
    expect((await withKey('10.0.0.5', BAD_KEY)).statusCode).toBe(429);
  });

  it('expired and revoked keys count as failures (F8)', async () => {
    const expired = (
      await h.admin('POST', `/admin/workspaces/${ws.id}/keys`, {
        level: 'read',
        expiresAt: Date.now() - 1000,
      })
    ).json().data;
    const revoked = (await h.admin('POST', `/admin/workspaces/${ws.id}/keys`, { level: 'read' })).json().data;
    expect((await h.admin('DELETE', `/admin/keys/${revoked.id}`)).statusCode).toBe(200);
    for (let i = 0; i < LIMIT; i++) {
      expect((await withKey('10.0.0.6', i % 2 ? expired.key : revoked.key)).statusCode).toBe(401);
    }
    expect((await withKey('10.0.0.6', expired.key)).statusCode).toBe(429);
  });

  it('a request with no credential at all is not a guess and is not counted (F8)', async () => {
    for (let i = 0; i < LIMIT * 2; i++) expect((await from('10.0.0.7')).statusCode).toBe(401);
    expect((await withKey('10.0.0.7', ws.key)).statusCode).toBe(200);
  });

  it('addresses of one IPv6 /64 share a count (F8)', async () => {
    for (let i = 0; i < LIMIT; i++)
      expect((await withKey(`2001:db8:1:2::${i + 1}`, BAD_KEY)).statusCode).toBe(401);
    expect((await withKey('2001:db8:1:2::ffff', ws.key)).statusCode).toBe(429);
    expect((await withKey('2001:db8:1:3::1', ws.key)).statusCode).toBe(200);
  });

  it('once the minute has passed, the address is heard again (F8)', async () => {
    expect((await withKey('10.0.0.1', ws.key)).statusCode).toBe(429);
    offset += 61_000;
    expect((await withKey('10.0.0.1', ws.key)).statusCode).toBe(200);
    expect((await withKey('10.0.0.1', BAD_KEY)).statusCode).toBe(401);
    expect((await asAdmin('10.0.0.3', ADMIN_TOKEN)).statusCode).toBe(200);
  });
});

describe('failed-authentication throttling switched off (issue 15 F8)', () => {
  it('AUTH_FAILURES_PER_MIN=0 never throttles', async () => {
    const h = await startHarness({ AUTH_FAILURES_PER_MIN: '0' });
    try {
      const ws = await h.workspace();
      const url = `/v2/workspaces/${ws.id}/tables`;
      for (let i = 0; i < 40; i++) {
        const r = await h.app.inject({ url, remoteAddress: '10.0.0.9', headers: { 'x-api-key': BAD_KEY } });
        expect(r.statusCode).toBe(401);
      }
      const ok = await h.app.inject({ url, remoteAddress: '10.0.0.9', headers: { 'x-api-key': ws.key } });
      expect(ok.statusCode).toBe(200);
    } finally {
      await h.close();
    }
  });
});

describe('failed-authentication throttling behind a proxy (issue 15 F8, TRUST_PROXY)', () => {
  let h: Harness;
  let ws: TestWorkspace;
  beforeAll(async () => {
    h = await startHarness({ AUTH_FAILURES_PER_MIN: String(LIMIT), TRUST_PROXY: '10.9.0.0/16' });
    ws = await h.workspace();
  });
  afterAll(() => h.close());

  it('counts the client named by a trusted proxy, so one client behind the balancer cannot block the rest', async () => {
    const url = `/v2/workspaces/${ws.id}/tables`;
    const via = (client: string, key: string, proxy = '10.9.0.1') =>
      h.app.inject({ url, remoteAddress: proxy, headers: { 'x-api-key': key, 'x-forwarded-for': client } });
    for (let i = 0; i <= LIMIT; i++) await via('203.0.113.7', `${BAD_KEY}${i}`);
    expect((await via('203.0.113.7', ws.key)).statusCode).toBe(429);
    // Another client through the same balancer is not blocked.
    expect((await via('203.0.113.8', ws.key)).statusCode).toBe(200);
    // An untrusted hop cannot pick its address: the connection's own address is counted.
    for (let i = 0; i <= LIMIT; i++) await via(`198.51.100.${i}`, BAD_KEY, '192.0.2.1');
    expect((await via('198.51.100.99', ws.key, '192.0.2.1')).statusCode).toBe(429);
  });
});
