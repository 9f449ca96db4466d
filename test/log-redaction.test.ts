import { connect } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loggerOptions, redactText, redactUrl } from '../src/infra/logger.ts';
import { type Harness, startHarness, type TestWorkspace } from './helpers/harness.ts';
import { logSink } from './helpers/log-sink.ts';

/** Sends raw bytes and waits for the server to close the connection. */
function rawExchange(port: number, bytes: string): Promise<string> {
  return new Promise((resolve) => {
    const socket = connect(port, '127.0.0.1', () => socket.write(bytes));
    const chunks: Buffer[] = [];
    socket.on('data', (c) => chunks.push(c));
    socket.on('error', () => {});
    socket.on('close', () => resolve(Buffer.concat(chunks).toString('utf8')));
  });
}

// Issue 15 F7 (item 6), interface.md 5.5: a query parameter whose decoded name says key,
// token, secret, password, auth, signature or credential never reaches a log in clear,
// whatever its encoding, through Fastify's own request lines and error logs.
describe('log redaction by parameter name (issue 15 F7)', () => {
  let h: Harness;
  let ws: TestWorkspace;
  const { sink, lines: logLines } = logSink();
  const secrets: string[] = [];
  let n = 0;
  /** A distinct secret value per variant, to look for in the log afterwards. */
  const secret = () => {
    const s = `SeCrEt${++n}x${Math.random().toString(36).slice(2, 10)}`;
    secrets.push(s);
    return s;
  };

  beforeAll(async () => {
    h = await startHarness(
      { REQUEST_IDLE_TIMEOUT_MS: '400' },
      { logger: { ...loggerOptions('trace'), stream: sink } },
    );
    ws = await h.workspace();
  });
  afterAll(() => h.close());

  const log = () => logLines.join('');

  it('redacts the share token under every encoding of its name (F7)', async () => {
    const names = [
      'token',
      '%74oken', // percent-encoded: the server decodes it and serves the token
      '%54%4F%4B%45%4E', // upper case, all encoded
      '%2574oken', // double-encoded
      'TOKEN',
      'To%6Ben',
      'tok+en',
      'to%2Bken',
    ];
    for (const name of names) {
      const r = await h.request('GET', `/v2/share/dsx_abc?${name}=v1.999.${secret()}`);
      expect(r.statusCode).toBeLessThan(500);
    }
    // Repeated, hidden behind a second `?`, and after malformed escapes that must not throw.
    await h.request('GET', `/v2/share/dsx_abc?token=a&token=${secret()}`);
    await h.request('GET', `/v2/share/dsx_abc?x=1?token=${secret()}`);
    await h.request('GET', `/v2/share/dsx_abc?%E0%A4%A=1&%ZZ=2&%=3&%74oken=${secret()}`);
    await h.request('GET', `/v2/share/dsx_abc?token=${secret()}?tail${secret()}`);
    await h.request('GET', `/v2/share/dsx_abc?token=${secret()}"quoted ${secret()}`);
    const all = log();
    for (const s of secrets) expect(all).not.toContain(s);
    expect(all).toContain('[redacted]');
  });

  it('redacts keys, passwords, auth, signatures and credentials on other routes (F7)', async () => {
    const names = [
      'x-api-key',
      'X-Api-Key',
      'api_key',
      'apikey',
      'api%5Fkey',
      'key',
      'auth',
      'Authorization',
      'password',
      'passwd',
      'secret',
      'client_secret',
      'access_token',
      'signature',
      'X-Amz-Signature',
      'X-Amz-Credential',
      'sig',
    ];
    const base = `/v2/workspaces/${ws.id}/tables`;
    for (const name of names) {
      // Served (200), refused (401) and unknown routes (404) all log their URL.
      expect((await h.request('GET', `${base}?${name}=${secret()}`, { key: ws.key })).statusCode).toBe(200);
      expect((await h.request('GET', `${base}?${name}=${secret()}`, { key: 'nope' })).statusCode).toBe(401);
      expect((await h.request('GET', `/v2/nowhere?limit=5&${name}=${secret()}`)).statusCode).toBe(404);
    }
    const all = log();
    for (const s of secrets) expect(all).not.toContain(s);
    // Parameters that are no credential stay readable.
    expect(all).toContain('/v2/nowhere?limit=5&');
  });

  it("redacts the URL quoted in Fastify's error logs (reply already sent after a 408) (F7)", async () => {
    const value = secret();
    const answer = await rawExchange(
      h.config.port,
      [
        `POST /v2/workspaces/${ws.id}/tables?api_key=${value} HTTP/1.1`,
        'host: 127.0.0.1',
        `x-api-key: ${ws.key}`,
        'content-type: application/json',
        'content-length: 50',
        '',
        '',
      ].join('\r\n'),
    );
    expect(answer).toMatch(/^HTTP\/1\.1 408/);
    // The aborted request's parser reports "Reply was already sent ... in <url>".
    await expect.poll(() => log().includes('FST_ERR_REP_ALREADY_SENT'), { timeout: 5_000 }).toBe(true);
    expect(log()).not.toContain(value);
  });

  it('keeps the raw bytes of a malformed request out of the client-error log (F7)', async () => {
    const value = secret();
    await rawExchange(
      h.config.port,
      `GET /v2/share/dsx_abc?token=${value} HTTP/1.1\r\nbad header line\r\n\r\n`,
    );
    await expect.poll(() => log().includes('client error'), { timeout: 5_000 }).toBe(true);
    expect(log()).not.toContain(value);
    expect(log()).not.toContain('rawPacket');
  });

  it('never throws on malformed names and leaves other parameters alone (F7)', () => {
    expect(redactUrl('/x?%E0%A4%A=1&%=2&%%%=3&offset=4')).toBe('/x?%E0%A4%A=1&%=2&%%%=3&offset=4');
    expect(redactUrl('/x?%252574oken=s&sort=-createdAt')).toBe('/x?%252574oken=[redacted]&sort=-createdAt');
    expect(redactUrl('/x?a=1;password=s;b=2')).toBe('/x?a=1;password=[redacted];b=2');
    // Quoted in a message, the value ends at the quote; in a URL it runs to the separator.
    expect(redactText('sent in "/x?token=abc" (GET)')).toBe('sent in "/x?token=[redacted]" (GET)');
    expect(redactUrl('/x?token=a"b c&d=1')).toBe('/x?token=[redacted]&d=1');
  });
});
