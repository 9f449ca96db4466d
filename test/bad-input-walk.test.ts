/**
 * Issue 15 item 3 (findings F2, F3, F4): every route in the served /openapi.json, walked with
 * hostile input, answers a client error and never a 5xx:
 * - path ids and query values holding a NUL byte, invalid percent-encoding, and numbers
 *   beyond int64;
 * - JSON bodies whose strings hold NUL or unpaired surrogates, and whose numbers are beyond
 *   int64 (1e20), beyond any float (1e308) or past JS safe integers (9007199254740993);
 * - malformed multipart: no boundary, a boundary that never appears, a truncated body.
 * Section 7: 400 for a validation failure; 500 only for a server fault.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN_TOKEN, type Harness, startHarness, type TestWorkspace } from './helpers/harness.ts';

type Schema = {
  type?: string | string[];
  properties?: Record<string, Schema>;
  required?: string[];
  items?: Schema;
  enum?: unknown[];
  const?: unknown;
  anyOf?: Schema[];
  minimum?: number;
  minLength?: number;
  format?: string;
};
type Operation = {
  parameters?: { name: string; in: string; schema?: Schema }[];
  requestBody?: { content?: Record<string, { schema?: Schema }> };
};

const HOSTILE_TEXT = ['a\u0000b', '\u0000', 'x\ud800y'];
/** UNSAFE stands for 9007199254740993 (2^53 + 1), written into the JSON text as digits. */
const UNSAFE = 'UNSAFE_INTEGER_9007199254740993';
const HOSTILE_NUMBERS: unknown[] = [1e20, 1e308, UNSAFE, -1e20];
const HOSTILE_PATH = ['abc%00def', '%00', '%E0%A4%A', '99999999999999999999', '%ED%A0%80'];
const HOSTILE_QUERY = ['a%00b', '99999999999999999999', '1e400', '-99999999999999999999', '%ZZ'];

/** One plausible value for a schema: enough to get past the other fields' validation. */
function sample(s: Schema | undefined): unknown {
  if (!s) return 'x';
  if (s.const !== undefined) return s.const;
  if (s.enum) return s.enum[0];
  if (s.anyOf) return sample(s.anyOf.find((a) => a.type !== 'null') ?? s.anyOf[0]);
  const type = Array.isArray(s.type) ? s.type.find((t) => t !== 'null') : s.type;
  switch (type) {
    case 'object': {
      const out: Record<string, unknown> = {};
      for (const k of s.required ?? []) out[k] = sample(s.properties?.[k]);
      return out;
    }
    case 'array':
      return [sample(s.items)];
    case 'integer':
    case 'number':
      return Math.max(1, s.minimum ?? 1);
    case 'boolean':
      return true;
    default:
      return 'x'.repeat(Math.max(1, s.minLength ?? 1));
  }
}

/** Bodies that each put one hostile value into one field (nested fields included). */
function hostileBodies(s: Schema | undefined, depth = 0): unknown[] {
  if (!s || depth > 3) return [];
  const type = Array.isArray(s.type) ? s.type.find((t) => t !== 'null') : s.type;
  if (s.anyOf) return s.anyOf.flatMap((a) => hostileBodies(a, depth));
  if (type === 'string' || s.enum) return HOSTILE_TEXT;
  if (type === 'integer' || type === 'number') return HOSTILE_NUMBERS;
  if (type === 'array') return hostileBodies(s.items, depth + 1).map((v) => [v]);
  if (type === 'object' || s.properties) {
    const base = sample({ ...s, type: 'object' }) as Record<string, unknown>;
    const out: unknown[] = [];
    for (const [k, sub] of Object.entries(s.properties ?? {})) {
      for (const v of hostileBodies(sub, depth + 1)) out.push({ ...base, [k]: v });
    }
    // A hostile property name too.
    out.push({ ...base, 'k\u0000': 'v' });
    return out;
  }
  return [];
}

describe('every route under hostile input (issue 15 item 3, F2-F4, section 7)', () => {
  let h: Harness;
  let ws: TestWorkspace;
  let doc: { paths: Record<string, Record<string, Operation>> };

  beforeAll(async () => {
    h = await startHarness();
    ws = await h.workspace({ credits: 1000 });
    doc = (await h.request('GET', '/openapi.json')).json();
  });
  afterAll(() => h?.close());

  const headersFor = (path: string): Record<string, string> =>
    path.startsWith('/admin') ? { 'x-admin-token': ADMIN_TOKEN } : { 'x-api-key': ws.key };

  /** The path with its workspace filled in and every other param set to `other`. */
  const fill = (path: string, other: string) =>
    path.replace(/\{(\w+)\}/g, (_m, name: string) => (name === 'workspaceId' ? ws.id : other));

  it('walks every operation: no response >= 500', async () => {
    const failures: string[] = [];
    let requests = 0;
    const send = async (method: string, url: string, headers: Record<string, string>, payload?: unknown) => {
      requests++;
      const res = await h.app.inject({
        method: method.toUpperCase() as 'GET',
        url,
        headers: {
          ...headers,
          ...(payload !== undefined && typeof payload !== 'string'
            ? { 'content-type': 'application/json' }
            : {}),
        },
        ...(payload !== undefined
          ? { payload: typeof payload === 'string' ? payload : JSON.stringify(payload) }
          : {}),
      });
      if (res.statusCode >= 500)
        failures.push(
          `${method.toUpperCase()} ${url} ${JSON.stringify(payload)?.slice(0, 120) ?? ''} -> ${res.statusCode} ${res.body.slice(0, 160)}`,
        );
      return res;
    };
    const operations = Object.entries(doc.paths).flatMap(([path, ops]) =>
      Object.entries(ops).map(([method, op]) => ({ path, method, op })),
    );
    expect(operations.length).toBeGreaterThan(50);
    for (const { path, method, op } of operations) {
      const headers = headersFor(path);
      const jsonSchema = op.requestBody?.content?.['application/json']?.schema;
      // Every POST, whatever its schema says: an upload route may take its body as a stream.
      const multipart = method === 'post';
      const validBody = jsonSchema ? sample(jsonSchema) : undefined;
      // Path params.
      if (/\{(?!workspaceId\})\w+\}/.test(path)) {
        for (const v of HOSTILE_PATH) await send(method, fill(path, v), headers, validBody);
      }
      const base = fill(path, 'xyz_0000000000');
      // Query params.
      for (const p of op.parameters ?? []) {
        if (p.in !== 'query') continue;
        for (const v of HOSTILE_QUERY) await send(method, `${base}?${p.name}=${v}`, headers, validBody);
      }
      // JSON bodies.
      if (jsonSchema) {
        for (const body of hostileBodies(jsonSchema)) await send(method, base, headers, body);
        await send(method, base, headers, '{"name": "a\\u0000b"}');
      }
      // Malformed multipart.
      if (multipart) {
        const mp = (ct: string, body: string) => send(method, base, { ...headers, 'content-type': ct }, body);
        await mp(
          'multipart/form-data',
          '--x\r\nContent-Disposition: form-data; name="a"\r\n\r\n1\r\n--x--\r\n',
        );
        await mp(
          'multipart/form-data; boundary=abc',
          '--other\r\nContent-Disposition: form-data; name="a"\r\n\r\n1\r\n--other--\r\n',
        );
        await mp(
          'multipart/form-data; boundary=abc',
          '--abc\r\nContent-Disposition: form-data; name="file"; filename="a.pdf"\r\nContent-Type: application/pdf\r\n\r\n%PDF-1.4 trunc',
        );
        await mp(
          'multipart/form-data; boundary=abc',
          '--abc\r\nContent-Disposition: form-data; name="fi\u0000le"\r\n\r\nv\r\n--abc--\r\n',
        );
      }
    }
    expect(requests).toBeGreaterThan(500);
    expect(failures).toEqual([]);
  }, 300_000);

  it('F2, F3: the answer is a 400 that names the field, for ids, query values and bodies', async () => {
    const call = async (
      method: string,
      url: string,
      payload?: string,
      headers: Record<string, string> = { 'x-api-key': ws.key },
    ) => {
      const res = await h.app.inject({
        method: method as 'GET',
        url,
        headers: { ...headers, ...(payload !== undefined ? { 'content-type': 'application/json' } : {}) },
        ...(payload !== undefined ? { payload } : {}),
      });
      return { status: res.statusCode, error: (res.json() as { error?: string }).error };
    };
    const admin = { 'x-admin-token': ADMIN_TOKEN };
    const v2 = `/v2/workspaces/${ws.id}`;
    // F2: NUL and unpaired surrogates, in an id, a query value, a body string and a body key.
    expect(await call('GET', `${v2}/tables/abc%00def`)).toEqual({
      status: 400,
      error: expect.stringMatching(/^params\.tableId contains a character that cannot be stored/),
    });
    expect(await call('GET', '/v2/share/dsx_%00abc?token=abc', undefined, {})).toEqual({
      status: 400,
      error: expect.stringMatching(/^params\.fileItemId contains/),
    });
    expect(await call('GET', `${v2}/files?sort=a%00b`)).toMatchObject({
      status: 400,
      error: expect.stringMatching(/^querystring\.sort contains/),
    });
    expect(await call('POST', `${v2}/tables`, '{"name":"a\\u0000b"}')).toEqual({
      status: 400,
      error: expect.stringMatching(/^body\.name contains a character that cannot be stored/),
    });
    expect(await call('POST', `${v2}/tables`, '{"name":"a\\ud800b"}')).toMatchObject({
      status: 400,
      error: expect.stringMatching(/^body\.name contains/),
    });
    expect(await call('POST', `${v2}/tables`, '{"name":"ok","x\\u0000":1}')).toMatchObject({
      status: 400,
      error: expect.stringMatching(/^body \(a key\) contains/),
    });
    // A surrogate pair (an emoji) is text like any other.
    expect((await call('POST', `${v2}/tables`, '{"name":"ok \\ud83d\\ude00"}')).status).toBe(200);
    // F3: numbers beyond int64 or past exact JS integers, in bodies and query values.
    for (const n of ['1e20', '9007199254740993', '1e308']) {
      expect(await call('POST', '/admin/workspaces', `{"name":"x","credits":${n}}`, admin)).toEqual({
        status: 400,
        error: expect.stringContaining('body.credits must be <='),
      });
    }
    expect(await call('POST', '/admin/workspaces', '{"name":"x","spendCap":1e308}', admin)).toMatchObject({
      status: 400,
      error: expect.stringContaining('body.spendCap'),
    });
    expect(await call('GET', `${v2}/files?offset=99999999999999999999`)).toEqual({
      status: 400,
      error: expect.stringContaining('querystring.offset must be <='),
    });
    expect(await call('GET', '/v1/jobs?offset=1e400')).toMatchObject({
      status: 400,
      error: expect.stringContaining('querystring.offset'),
    });
    // The largest exact integer is still accepted where a field allows it (admin credits clamp nothing here).
    const big = await call(
      'POST',
      '/admin/workspaces',
      `{"name":"x","spendCap":${Number.MAX_SAFE_INTEGER}}`,
      admin,
    );
    expect(big.status).toBe(200);
  });

  it('F4: malformed multipart on v2 files, v1 extract and v1 vectorize is a 400 with the JSON error shape', async () => {
    const bodies: Array<[string, string]> = [
      [
        'multipart/form-data',
        '--x\r\nContent-Disposition: form-data; name="url"\r\n\r\nhttp://example.com\r\n--x--\r\n',
      ],
      [
        'multipart/form-data; boundary=abc',
        '--zzz\r\nContent-Disposition: form-data; name="url"\r\n\r\nhttp://example.com\r\n--zzz--\r\n',
      ],
      [
        'multipart/form-data; boundary=abc',
        '--abc\r\nContent-Disposition: form-data; name="file"; filename="a.pdf"\r\nContent-Type: application/pdf\r\n\r\n%PDF-1.4 cut off',
      ],
      [
        'multipart/form-data; boundary=abc',
        '--abc\r\nContent-Disposition: form-data; name="url"\r\n\r\nhttp://a\u0000b\r\n--abc--\r\n',
      ],
    ];
    for (const url of [`/v2/workspaces/${ws.id}/files`, '/v1/extract', '/v1/vectorize']) {
      for (const [contentType, payload] of bodies) {
        const res = await h.app.inject({
          method: 'POST',
          url,
          headers: { 'x-api-key': ws.key, 'content-type': contentType },
          payload,
        });
        expect({ url, contentType, status: res.statusCode }).toEqual({ url, contentType, status: 400 });
        expect(res.json()).toEqual({ success: false, error: expect.any(String) });
      }
    }
  });
});
