import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Harness, startHarness, type TestWorkspace } from './helpers/harness.ts';

// interface.md 2.2 (fields), 4.2 (routes), 3.2 (version bumps), 8 (limits).
describe('columns', () => {
  let h: Harness;
  let ws: TestWorkspace;
  let tableId: string;
  let base: string;
  beforeAll(async () => {
    h = await startHarness();
    ws = await h.workspace();
    tableId = (
      await h.request('POST', `/v2/workspaces/${ws.id}/tables`, { key: ws.key, body: { name: 'T' } })
    ).json().data.id;
    base = `/v2/workspaces/${ws.id}/tables/${tableId}/columns`;
  });
  afterAll(() => h.close());

  const create = (body: unknown) => h.request('POST', base, { key: ws.key, body });
  const patch = (id: string, body: unknown) => h.request('PATCH', `${base}/${id}`, { key: ws.key, body });

  it('creates with defaults (2.2): text_quote, rate 4, version 1, not compositional, next sortOrder', async () => {
    const a = (await create({ name: 'Parties', prompt: 'Who are the parties?' })).json().data;
    expect(a).toMatchObject({
      tableId,
      outputType: 'text_quote',
      creditRate: 4,
      version: 1,
      isCompositional: false,
      config: null,
      archivedAt: null,
    });
    expect(a.id).toMatch(/^rcol_[0-9A-Za-z]{20}$/);
    expect(a.sortOrder).toBe(0);
    const b = (
      await create({ name: 'Total', prompt: 'Total?', outputType: 'number', creditRate: 40, sortOrder: 5 })
    ).json().data;
    expect(b).toMatchObject({ outputType: 'number', creditRate: 40, sortOrder: 5 });
    const c = (await create({ name: 'Date', prompt: 'When?', sortOrder: 2 })).json().data;
    const d = (await create({ name: 'Next', prompt: 'Next?' })).json().data;
    expect(d.sortOrder).toBe(6);
    const list = (await h.request('GET', base, { key: ws.readKey })).json();
    expect(list.data.map((x: { id: string }) => x.id)).toEqual([a.id, c.id, b.id, d.id]); // ordered by sortOrder
  });

  it('passes config through verbatim, validated only for length', async () => {
    const config = '{"categories":["a","b"],  "x": {"nested":true}}';
    const c = (await create({ name: 'Cat', prompt: 'Which?', outputType: 'categorical', config })).json()
      .data;
    expect(c.config).toBe(config);
    expect((await create({ name: 'Big', prompt: 'p', config: 'x'.repeat(4000) })).statusCode).toBe(200);
    expect((await create({ name: 'Bigger', prompt: 'p', config: 'x'.repeat(4001) })).statusCode).toBe(400);
  });

  it.each([
    ['empty name', { name: '', prompt: 'p' }],
    ['121-char name', { name: 'n'.repeat(121), prompt: 'p' }],
    ['empty prompt', { name: 'n', prompt: '' }],
    ['4,001-char prompt', { name: 'n', prompt: 'p'.repeat(4001) }],
    ['unknown outputType', { name: 'n', prompt: 'p', outputType: 'essay' }],
    ['creditRate 3', { name: 'n', prompt: 'p', creditRate: 3 }],
    ['creditRate 41', { name: 'n', prompt: 'p', creditRate: 41 }],
    ['fractional creditRate', { name: 'n', prompt: 'p', creditRate: 4.5 }],
    ['negative sortOrder', { name: 'n', prompt: 'p', sortOrder: -1 }],
    ['config as an object', { name: 'n', prompt: 'p', config: { a: 1 } }],
  ])('refuses %s with 400 (8)', async (_l, body) => {
    expect((await create(body)).statusCode).toBe(400);
  });

  it('accepts all eight output types', async () => {
    for (const outputType of [
      'text_quote',
      'number',
      'date',
      'boolean',
      'categorical',
      'list_scalar',
      'image',
      'image_list',
    ]) {
      expect((await create({ name: outputType, prompt: 'p', outputType })).statusCode, outputType).toBe(200);
    }
  });

  it('bumps the version exactly as the table of 3.2 says', async () => {
    const c = (await create({ name: 'V', prompt: 'first', outputType: 'text_quote' })).json().data;
    const v = async (body: unknown) => (await patch(c.id, body)).json().data.version;
    expect(await v({ prompt: 'first' })).toBe(1); // same value: no bump
    expect(await v({ outputType: 'text_quote' })).toBe(1);
    expect(await v({ name: 'V2', config: '{}', creditRate: 8, sortOrder: 9, isCompositional: true })).toBe(1);
    expect(await v({ prompt: 'second' })).toBe(2);
    expect(await v({ outputType: 'number' })).toBe(3);
    expect(await v({ prompt: 'third', outputType: 'date' })).toBe(4); // one change, one bump
    const after = (await patch(c.id, {})).json().data;
    expect(after).toMatchObject({
      name: 'V2',
      config: '{}',
      creditRate: 8,
      sortOrder: 9,
      isCompositional: true,
      prompt: 'third',
      outputType: 'date',
    });
  });

  it('bumps every active column when the table locale changes, and nothing else does (3.2)', async () => {
    const t = (
      await h.request('POST', `/v2/workspaces/${ws.id}/tables`, { key: ws.key, body: { name: 'L' } })
    ).json().data;
    const cb = `/v2/workspaces/${ws.id}/tables/${t.id}/columns`;
    const a = (await h.request('POST', cb, { key: ws.key, body: { name: 'a', prompt: 'p' } })).json().data;
    const b = (await h.request('POST', cb, { key: ws.key, body: { name: 'b', prompt: 'p' } })).json().data;
    await h.request('DELETE', `${cb}/${b.id}`, { key: ws.key });
    const tp = (body: unknown) =>
      h.request('PATCH', `/v2/workspaces/${ws.id}/tables/${t.id}`, { key: ws.key, body });
    await tp({ name: 'renamed', color: 'blue', standing: true });
    await tp({ locale: null }); // same as stored
    const versions = async () =>
      (await h.request('GET', cb, { key: ws.key }))
        .json()
        .data.map((c: { id: string; version: number }) => [c.id, c.version]);
    expect(await versions()).toEqual([
      [a.id, 1],
      [b.id, 1],
    ]);
    await tp({ locale: 'de-DE' });
    expect(await versions()).toEqual([
      [a.id, 2],
      [b.id, 1],
    ]); // the archived column is left alone
    await tp({ locale: 'de-DE' });
    expect(await versions()).toEqual([
      [a.id, 2],
      [b.id, 1],
    ]);
  });

  it('archives: listed with archivedAt, idempotent, no longer editable; 404 for another table', async () => {
    const c = (await create({ name: 'old', prompt: 'p' })).json().data;
    const r = await h.request('DELETE', `${base}/${c.id}`, { key: ws.key });
    expect(r.json().data.archivedAt).toBeGreaterThan(0);
    expect((await h.request('DELETE', `${base}/${c.id}`, { key: ws.key })).json().data.archivedAt).toBe(
      r.json().data.archivedAt,
    );
    const listed = (await h.request('GET', base, { key: ws.key }))
      .json()
      .data.find((x: { id: string }) => x.id === c.id);
    expect(listed.archivedAt).toBe(r.json().data.archivedAt);
    expect((await patch(c.id, { name: 'x' })).statusCode).toBe(400);
    expect((await patch('rcol_nothere0000000000000', { name: 'x' })).statusCode).toBe(404);
  });

  it('needs Read & write to change columns', async () => {
    expect(
      (await h.request('POST', base, { key: ws.readKey, body: { name: 'n', prompt: 'p' } })).statusCode,
    ).toBe(403);
  });
});
