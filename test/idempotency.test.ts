/**
 * Issue 17 item 2: `Idempotency-Key` on every POST that creates or spends (file uploads v1
 * and v2, runs, bundles, tables, columns, rows, overrides). Per route: the same key and body
 * replays the first answer with no second effect; a different body under the key is 422;
 * duplicates raced together take effect once (the others 409 while the first runs, or a
 * replay); keys are scoped per API key; an answer is kept 24 hours (moved clock).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeTextPdf } from './fixtures/pdf.ts';
import { type Harness, startHarness, type TestWorkspace } from './helpers/harness.ts';
import { api, type Json } from './helpers/runs.ts';
import { seedCell, seedFile } from './helpers/seed.ts';

interface Answer {
  status: number;
  body: string;
  replayed: boolean;
}

let offset = 0;

describe('Idempotency-Key (issue 17 item 2)', () => {
  let h: Harness;
  let ws: TestWorkspace;
  let pdf: Uint8Array;
  let otherPdf: Uint8Array;

  beforeAll(async () => {
    h = await startHarness({}, { now: () => Date.now() + offset });
    ws = await h.workspace({ credits: 10_000 });
    pdf = await makeTextPdf([['Invoice 1', 'Total 10.00']]);
    otherPdf = await makeTextPdf([['Invoice 2 with a longer line of text', 'Total 20.00']]);
  });
  afterAll(() => h?.close());

  const count = async (sql: string, params: unknown[] = []) =>
    (await h.db.query<{ n: number }>(sql, params))[0]!.n;

  /** A JSON request through inject. */
  const json =
    (method: 'POST' | 'PUT', url: string, body: unknown, apiKey = () => ws.key) =>
    async (key: string | null, override?: unknown): Promise<Answer> => {
      const r = await h.app.inject({
        method,
        url,
        headers: { 'x-api-key': apiKey(), ...(key !== null ? { 'idempotency-key': key } : {}) },
        payload: (override ?? body) as object,
      });
      return { status: r.statusCode, body: r.body, replayed: r.headers['idempotent-replayed'] === 'true' };
    };

  /** A multipart upload over real HTTP. */
  const upload =
    (url: string, file: () => Uint8Array) =>
    async (key: string | null, override?: unknown): Promise<Answer> => {
      const form = new FormData();
      form.append('file', new Blob([(override as Uint8Array | undefined) ?? file()]), 'doc.pdf');
      const r = await fetch(`${h.baseUrl}${url}`, {
        method: 'POST',
        headers: { 'x-api-key': ws.key, ...(key !== null ? { 'idempotency-key': key } : {}) },
        body: form,
      });
      return {
        status: r.status,
        body: await r.text(),
        replayed: r.headers.get('idempotent-replayed') === 'true',
      };
    };

  /**
   * For routes where every effect needs a body of its own (a row per file, a member per
   * file): the first key's body, the raced key's body, and the keyless one.
   */
  const byKey =
    (
      send: (key: string | null, override?: unknown) => Promise<Answer>,
      bodies: { first: unknown; race: unknown; free: unknown },
    ) =>
    (key: string | null, override?: unknown) =>
      send(key, override ?? (key === null ? bodies.free : key.endsWith('-2') ? bodies.race : bodies.first));

  /**
   * The contract for one route: `send` makes the request (with a key, and optionally a
   * different body), `effects` counts what it changes.
   */
  async function contract(
    name: string,
    send: (key: string | null, override?: unknown) => Promise<Answer>,
    different: unknown,
    effects: () => Promise<number>,
  ) {
    const before = await effects();
    const first = await send(`${name}-1`);
    expect(first.status, first.body).toBe(200);
    expect(first.replayed).toBe(false);
    expect(await effects()).toBe(before + 1);
    // The same request again: the first answer, replayed; nothing more happens.
    const again = await send(`${name}-1`);
    expect({ status: again.status, body: again.body, replayed: again.replayed }).toEqual({
      status: first.status,
      body: first.body,
      replayed: true,
    });
    expect(await effects()).toBe(before + 1);
    // A different request under the same key: 422, nothing happens.
    const other = await send(`${name}-1`, different);
    expect(other.status, other.body).toBe(422);
    expect(JSON.parse(other.body)).toEqual({
      success: false,
      error: expect.stringContaining('different request'),
    });
    expect(await effects()).toBe(before + 1);
    // Five duplicates at once: one effect; the rest wait their turn (409) or replay it.
    const raced = await Promise.all(Array.from({ length: 5 }, () => send(`${name}-2`)));
    const statuses = raced.map((r) => r.status);
    for (const s of statuses) expect([200, 409]).toContain(s);
    const ok = raced.filter((r) => r.status === 200);
    expect(ok.length).toBeGreaterThanOrEqual(1);
    expect(new Set(ok.map((r) => r.body)).size).toBe(1);
    expect(ok.filter((r) => !r.replayed)).toHaveLength(1);
    for (const r of raced.filter((x) => x.status === 409)) {
      expect(JSON.parse(r.body)).toEqual({
        success: false,
        error: expect.stringContaining('still in progress'),
      });
    }
    expect(await effects()).toBe(before + 2);
    // No key: every request takes effect.
    await send(null);
    expect(await effects()).toBe(before + 3);
  }

  it('POST tables (4.1)', async () => {
    await contract(
      'tables',
      json('POST', `/v2/workspaces/${ws.id}/tables`, { name: 'T' }),
      { name: 'U' },
      () => count('SELECT count(*)::int AS n FROM extraction_tables WHERE workspace_id = $1', [ws.id]),
    );
  });

  it('POST columns (4.2), rows (D2), bundles and bundle files (4.5), overrides (4.4)', async () => {
    const a = api(h, ws);
    const table = await a.table('idem');
    await contract(
      'columns',
      json('POST', `/v2/workspaces/${ws.id}/tables/${table}/columns`, { name: 'C', prompt: 'What?' }),
      { name: 'C', prompt: 'What else?' },
      () => count('SELECT count(*)::int AS n FROM table_columns WHERE table_id = $1', [table]),
    );
    const files = await Promise.all([1, 2, 3, 4].map(() => seedFile(h.db, ws.id)));
    const file = (i: number) => ({ subjectType: 'file', subjectId: files[i] });
    await contract(
      'rows',
      byKey(json('POST', `/v2/workspaces/${ws.id}/tables/${table}/rows`, file(0)), {
        first: file(0),
        race: file(1),
        free: file(2),
      }),
      file(3),
      () => count('SELECT count(*)::int AS n FROM table_rows WHERE table_id = $1', [table]),
    );
    await contract(
      'bundles',
      json('POST', `/v2/workspaces/${ws.id}/bundles`, { name: 'B' }),
      { name: 'B2' },
      () => count('SELECT count(*)::int AS n FROM bundles WHERE workspace_id = $1', [ws.id]),
    );
    const bundle = (await a.must('POST', '/bundles', { name: 'members' })).id as string;
    await contract(
      'members',
      byKey(json('POST', `/v2/workspaces/${ws.id}/bundles/${bundle}/files`, { fileIds: [files[0]] }), {
        first: { fileIds: [files[0]] },
        race: { fileIds: [files[1]] },
        free: { fileIds: [files[2]] },
      }),
      { fileIds: [files[3]] },
      () => count('SELECT count(*)::int AS n FROM bundle_members WHERE bundle_id = $1', [bundle]),
    );

    // Overrides: each takes effect as an event in the cell's log (2.5).
    const col = (await a.must('POST', `/tables/${table}/columns`, { name: 'O', prompt: 'O?' })).id as string;
    const rowId = (await a.must('GET', `/tables/${table}/rows`))[0].id as string;
    const cellId = await seedCell(h.db, { tableId: table, rowId, columnId: col, columnVersion: 1 });
    const url = `/v2/workspaces/${ws.id}/tables/${table}/cells/${cellId}/override`;
    const events = () => count('SELECT count(*)::int AS n FROM cell_events WHERE cell_id = $1', [cellId]);
    await contract(
      'override',
      byKey(json('PUT', url, { value: { type: 'text_quote', value: 'first' } }), {
        first: { value: { type: 'text_quote', value: 'first' } },
        race: { value: { type: 'text_quote', value: 'second' } },
        free: { value: { type: 'text_quote', value: 'third' } },
      }),
      { value: { type: 'text_quote', value: 'other' } },
      events,
    );
  });

  it('POST runs (4.3) and a column run: charged once', async () => {
    const a = api(h, ws);
    const table = await a.table('idem runs');
    await a.column(table, { prompt: 'What is the total?', outputType: 'text_quote' });
    await a.fileRow(table, await seedFile(h.db, ws.id));
    const runs = () => count('SELECT count(*)::int AS n FROM runs WHERE table_id = $1', [table]);
    await contract(
      'runs',
      json('POST', `/v2/workspaces/${ws.id}/tables/${table}/runs`, {}),
      { rowIds: ['nope'] },
      runs,
    );
  });

  it('file uploads: v2 files and v1 extract, vectorize (4.6, 4.8)', async () => {
    const jobs = () => count('SELECT count(*)::int AS n FROM jobs WHERE workspace_id = $1', [ws.id]);
    await contract(
      'v2-upload',
      upload(`/v2/workspaces/${ws.id}/files`, () => pdf),
      otherPdf,
      jobs,
    );
    await contract(
      'v1-extract',
      upload('/v1/extract', () => pdf),
      otherPdf,
      jobs,
    );
    await contract(
      'v1-vectorize',
      upload('/v1/vectorize', () => pdf),
      otherPdf,
      jobs,
    );
  });

  it('keys are scoped per API key: the same key string under another key is a new request', async () => {
    const url = `/v2/workspaces/${ws.id}/tables`;
    const tables = () =>
      count('SELECT count(*)::int AS n FROM extraction_tables WHERE workspace_id = $1', [ws.id]);
    const before = await tables();
    const mine = await json('POST', url, { name: 'scoped' })('shared-key');
    const second = (await h.admin('POST', `/admin/workspaces/${ws.id}/keys`, { level: 'read_write' })).json()
      .data.key as string;
    const theirs = await json('POST', url, { name: 'scoped' }, () => second)('shared-key');
    expect([mine.status, theirs.status, theirs.replayed]).toEqual([200, 200, false]);
    expect((JSON.parse(theirs.body) as Json).data.id).not.toBe((JSON.parse(mine.body) as Json).data.id);
    expect(await tables()).toBe(before + 2);
  });

  it('an answer is kept 24 hours: after that the key starts a new request', async () => {
    const url = `/v2/workspaces/${ws.id}/tables`;
    const first = await json('POST', url, { name: 'day' })('day-key');
    offset += 23 * 3600_000;
    expect((await json('POST', url, { name: 'day' })('day-key')).replayed).toBe(true);
    offset += 1 * 3600_000 + 1000;
    const later = await json('POST', url, { name: 'day' })('day-key');
    expect([later.status, later.replayed]).toEqual([200, false]);
    expect(later.body).not.toBe(first.body);
  });

  it('a bad key is a 400, and the OpenAPI document names the header on the routes that honour it', async () => {
    const bad = await json('POST', `/v2/workspaces/${ws.id}/tables`, { name: 'x' })('x'.repeat(256));
    expect(bad.status).toBe(400);
    const doc = (await h.request('GET', '/openapi.json')).json() as Json;
    const params = (path: string, method: string) =>
      ((doc.paths[path]?.[method]?.parameters ?? []) as Array<{ name: string; in: string }>)
        .filter((p) => p.in === 'header')
        .map((p) => p.name);
    expect(params('/v2/workspaces/{workspaceId}/tables', 'post')).toContain('idempotency-key');
    expect(params('/v2/workspaces/{workspaceId}/files', 'post')).toContain('idempotency-key');
    expect(params('/v2/workspaces/{workspaceId}/tables', 'get')).not.toContain('idempotency-key');
  });
});
