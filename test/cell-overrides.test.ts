import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newId } from '../src/infra/ids.ts';
import { replaceCellFacts } from '../src/infra/repos/cell-facts.ts';
import { type Harness, startHarness, type TestWorkspace } from './helpers/harness.ts';
import { seedCell, seedFile } from './helpers/seed.ts';

// interface.md 4.4 (override, events, facts), 2.4 (humanOverride beside value), 2.5 (cell event),
// 2.6 (cell fact, datasetId in citations), 3.2 (override transitions), 5 (access), 7 (errors).
describe('cell overrides, events and facts (4.4)', () => {
  let h: Harness;
  let ws: TestWorkspace;
  let tableId: string;
  let tbase: string;
  beforeAll(async () => {
    h = await startHarness();
    ws = await h.workspace();
    tableId = (
      await h.request('POST', `/v2/workspaces/${ws.id}/tables`, { key: ws.key, body: { name: 'T' } })
    ).json().data.id;
    tbase = `/v2/workspaces/${ws.id}/tables/${tableId}`;
  });
  afterAll(() => h.close());

  /** A column of this type, a new file row and a seeded cell at their crossing. */
  async function cellFor(
    outputType: string,
    opts: { config?: string; value?: unknown; status?: 'SUCCESS' | 'ERROR'; table?: string } = {},
  ) {
    const base = opts.table ? `/v2/workspaces/${ws.id}/tables/${opts.table}` : tbase;
    const col = await h.request('POST', `${base}/columns`, {
      key: ws.key,
      body: { name: outputType, prompt: `What ${outputType}?`, outputType, config: opts.config ?? null },
    });
    expect(col.statusCode).toBe(200);
    const row = await h.request('POST', `${base}/rows`, {
      key: ws.key,
      body: { subjectType: 'file', subjectId: await seedFile(h.db, ws.id) },
    });
    const columnId = col.json().data.id as string;
    const rowId = row.json().data.id as string;
    const cellId = await seedCell(h.db, {
      tableId: opts.table ?? tableId,
      rowId,
      columnId,
      columnVersion: 1,
      status: opts.status,
      value: opts.value,
    });
    return { cellId, columnId, rowId, url: `${base}/cells/${cellId}` };
  }

  const put = (url: string, value: unknown, key = ws.key) =>
    h.request('PUT', `${url}/override`, { key, body: { value } });
  const del = (url: string, key = ws.key) => h.request('DELETE', `${url}/override`, { key });
  const events = async (url: string) => {
    const r = await h.request('GET', `${url}/events`, { key: ws.readKey });
    expect(r.statusCode).toBe(200);
    return r.json().data as { id: string; type: string; data: string; actorId: string; createdAt: number }[];
  };

  it('4.4: accepts a value of each typed output type, and null; value stays untouched beside humanOverride', async () => {
    const cases: [string, unknown, string?][] = [
      ['text_quote', 'The Supplier'],
      ['number', 1250.5],
      ['number', -3],
      ['date', '2024-02-29'],
      ['boolean', false],
      ['categorical', 'Lease', JSON.stringify({ categories: ['Lease', 'Sale'] })],
      ['list_scalar', ['Acme Ltd', 'Beta GmbH']],
      ['list_scalar', []],
      ['text_quote', null],
      ['number', null],
      ['date', null],
      ['boolean', null],
      ['categorical', null, JSON.stringify({ categories: ['Lease'] })],
      ['list_scalar', null],
    ];
    for (const [type, value, config] of cases) {
      const extracted = { type, value: type === 'number' ? 7 : 'x' };
      const c = await cellFor(type, { config, value: extracted });
      const before = (await h.request('GET', `${tbase}/cells`, { key: ws.key }))
        .json()
        .data.find((x: { id: string }) => x.id === c.cellId);
      const r = await put(c.url, { type, value });
      expect(r.statusCode, `${type} ${JSON.stringify(value)}: ${r.body}`).toBe(200);
      const cell = r.json().data;
      expect(cell).toMatchObject({
        id: c.cellId,
        rowId: c.rowId,
        columnId: c.columnId,
        status: 'SUCCESS',
        value: extracted,
        humanOverride: { type, value },
        stale: false,
      });
      expect(cell.updatedAt).toBeGreaterThanOrEqual(before.updatedAt);
      // GET cells agrees.
      const listed = (await h.request('GET', `${tbase}/cells`, { key: ws.readKey }))
        .json()
        .data.find((x: { id: string }) => x.id === c.cellId);
      expect(listed).toEqual(cell);
    }
  });

  it('4.4, 7: refuses a value that does not match the column output type with 400 JSON', async () => {
    const cats = JSON.stringify({ categories: ['Lease', 'Sale'] });
    const cases: [string, unknown, RegExp, string?][] = [
      ['text_quote', { type: 'number', value: 3 }, /text_quote/],
      ['text_quote', { type: 'text_quote', value: 3 }, /string/],
      ['text_quote', { type: 'text_quote', value: '   ' }, /blank/],
      ['text_quote', { type: 'text_quote' }, /value\.value is required/],
      ['text_quote', { value: 'x' }, /type is required/],
      ['text_quote', 'just a string', /JSON object.*not a string/],
      ['text_quote', null, /JSON object/],
      ['text_quote', ['a'], /JSON object.*array/],
      ['number', { type: 'number', value: '12' }, /finite number/],
      ['number', { type: 'number', value: true }, /finite number/],
      ['date', { type: 'date', value: '2023-02-30' }, /YYYY-MM-DD/],
      ['date', { type: 'date', value: '2023-13-01' }, /YYYY-MM-DD/],
      ['date', { type: 'date', value: '2023-2-3' }, /YYYY-MM-DD/],
      ['date', { type: 'date', value: '2024-02-29T00:00:00Z' }, /YYYY-MM-DD/],
      ['date', { type: 'date', value: 20240229 }, /YYYY-MM-DD/],
      ['boolean', { type: 'boolean', value: 'yes' }, /true, false or null/],
      ['boolean', { type: 'boolean', value: 1 }, /true, false or null/],
      ['categorical', { type: 'categorical', value: 'Rental' }, /one of.*"Lease", "Sale"/, cats],
      ['categorical', { type: 'categorical', value: 'lease' }, /one of/, cats],
      ['categorical', { type: 'categorical', value: ['Lease'] }, /string/, cats],
      ['list_scalar', { type: 'list_scalar', value: 'Acme' }, /array of strings/],
      ['list_scalar', { type: 'list_scalar', value: ['Acme', 3] }, /value\.value\[1\]/],
      ['list_scalar', { type: 'list_scalar', value: [{ fileId: 'ds_x' }] }, /value\.value\[0\]/],
      ['date', { type: 'text_quote', value: '2024-01-01' }, /must be date/],
    ];
    for (const [type, value, message, config] of cases) {
      const c = await cellFor(type, { config });
      const r = await put(c.url, value);
      expect(r.statusCode, `${type} ${JSON.stringify(value)}`).toBe(400);
      expect(r.headers['content-type']).toMatch(/application\/json/);
      expect(r.json().success).toBe(false);
      expect(r.json().error).toMatch(message);
      const cell = (await h.request('GET', `${tbase}/cells`, { key: ws.key }))
        .json()
        .data.find((x: { id: string }) => x.id === c.cellId);
      expect(cell.humanOverride).toBeNull();
      expect(await events(c.url)).toEqual([]);
    }
    // No body, or a body without value.
    const c = await cellFor('text_quote');
    expect((await h.request('PUT', `${c.url}/override`, { key: ws.key, body: {} })).statusCode).toBe(400);
  });

  it('4.4: a categorical column without categories (or with an unreadable config) takes any text', async () => {
    for (const config of [undefined, '{"categoryColors":{}}', 'not json', '{"categories":"Lease"}']) {
      const c = await cellFor('categorical', { config });
      const r = await put(c.url, { type: 'categorical', value: 'Anything' });
      expect(r.statusCode, String(config)).toBe(200);
      expect(r.json().data.humanOverride).toEqual({ type: 'categorical', value: 'Anything' });
    }
  });

  it('4.4: overriding an image or image_list cell replaces the picture with text, stored as text_quote', async () => {
    const region = { fileId: 'ds_00000000000000000000', page: 1, box: [0.1, 0.1, 0.5, 0.5], caption: 'logo' };
    for (const type of ['image', 'image_list']) {
      const c = await cellFor(type, { value: [region] });
      const r = await put(c.url, { type: 'text_quote', value: 'A red logo, top left' });
      expect(r.statusCode).toBe(200);
      expect(r.json().data).toMatchObject({
        value: [region],
        humanOverride: { type: 'text_quote', value: 'A red logo, top left' },
      });
      // The column's own type with text is taken as text too.
      const own = await put(c.url, { type, value: 'No picture on the cover' });
      expect(own.statusCode).toBe(200);
      expect(own.json().data.humanOverride).toEqual({ type: 'text_quote', value: 'No picture on the cover' });

      // Hand-authored regions are refused, however they are sent.
      for (const value of [
        [region],
        region,
        { type, value: [region] },
        { type, value: region },
        { type: 'text_quote', value: { fileId: region.fileId, page: 1, box: null } },
      ]) {
        const bad = await put(c.url, value);
        expect(bad.statusCode, JSON.stringify(value)).toBe(400);
        expect(bad.json().error).toMatch(/regions are refused/);
      }
      expect((await put(c.url, { type: 'number', value: 3 })).json().error).toMatch(/text_quote/);
      expect((await put(c.url, { type: 'text_quote', value: 3 })).statusCode).toBe(400);
      const cell = (await h.request('GET', `${tbase}/cells`, { key: ws.key }))
        .json()
        .data.find((x: { id: string }) => x.id === c.cellId);
      expect(cell.humanOverride).toEqual({ type: 'text_quote', value: 'No picture on the cover' });
      expect(cell.value).toEqual([region]);
    }
  });

  it('2.5, 3.2: override_set carries the new value, the prior extracted value, the prior override and the acting key', async () => {
    const extracted = { type: 'number', value: 100 };
    const c = await cellFor('number', { value: extracted });
    expect((await put(c.url, { type: 'number', value: 120 })).statusCode).toBe(200);
    expect((await put(c.url, { type: 'number', value: 130, note: 'dropped' })).statusCode).toBe(200);

    const log = await events(c.url);
    expect(log).toHaveLength(2);
    for (const e of log) {
      expect(e.id).toMatch(/^rcev_[0-9A-Za-z]{20}$/);
      expect(e).toMatchObject({ cellId: c.cellId, type: 'override_set', actorId: ws.keyId });
      expect(typeof e.data).toBe('string');
      expect(e.createdAt).toBeGreaterThan(0);
    }
    expect(JSON.parse(log[0].data)).toEqual({
      value: { type: 'number', value: 120 },
      priorValue: extracted,
      priorOverride: null,
    });
    expect(JSON.parse(log[1].data)).toEqual({
      value: { type: 'number', value: 130 },
      priorValue: extracted,
      priorOverride: { type: 'number', value: 120 },
    });
    expect(log[1].createdAt).toBeGreaterThan(log[0].createdAt);
  });

  it('3.2: DELETE clears humanOverride, logs override_cleared, and is idempotent; events stay oldest first', async () => {
    const c = await cellFor('text_quote', { value: { type: 'text_quote', value: 'extracted' } });
    await put(c.url, { type: 'text_quote', value: 'first' });
    await put(c.url, { type: 'text_quote', value: 'second' });
    const cleared = await del(c.url);
    expect(cleared.statusCode).toBe(200);
    expect(cleared.json().data).toMatchObject({
      id: c.cellId,
      humanOverride: null,
      value: { type: 'text_quote', value: 'extracted' },
    });

    const again = await del(c.url);
    expect(again.statusCode).toBe(200);
    expect(again.json().data).toEqual(cleared.json().data);

    await put(c.url, { type: 'text_quote', value: 'third' });
    const log = await events(c.url);
    expect(log.map((e) => e.type)).toEqual([
      'override_set',
      'override_set',
      'override_cleared',
      'override_set',
    ]);
    expect(log.map((e) => JSON.parse(e.data).value?.value ?? null)).toEqual([
      'first',
      'second',
      null,
      'third',
    ]);
    expect(JSON.parse(log[2].data)).toEqual({ priorOverride: { type: 'text_quote', value: 'second' } });
    expect(log[2].actorId).toBe(ws.keyId);
    expect(JSON.parse(log[3].data).priorOverride).toBeNull();
    for (let i = 1; i < log.length; i++) expect(log[i].createdAt).toBeGreaterThan(log[i - 1].createdAt);

    // A cell that never had an override: nothing is logged.
    const fresh = await cellFor('text_quote');
    expect((await del(fresh.url)).json().data.humanOverride).toBeNull();
    expect(await events(fresh.url)).toEqual([]);
  });

  it('3.2: a human may fill in a cell in any status; the prior value of a cell that is not SUCCESS is null', async () => {
    const c = await cellFor('date', { status: 'ERROR', value: null });
    const r = await put(c.url, { type: 'date', value: '2021-06-30' });
    expect(r.statusCode).toBe(200);
    expect(r.json().data).toMatchObject({
      status: 'ERROR',
      value: null,
      humanOverride: { type: 'date', value: '2021-06-30' },
    });
    expect(JSON.parse((await events(c.url))[0].data).priorValue).toBeNull();
  });

  it('4.4: the returned cell carries stale computed server-side', async () => {
    const c = await cellFor('text_quote');
    await h.request('PATCH', `${tbase}/columns/${c.columnId}`, { key: ws.key, body: { prompt: 'changed' } });
    const r = await put(c.url, { type: 'text_quote', value: 'x' });
    expect(r.json().data).toMatchObject({ stale: true, columnVersion: 1 });
    expect((await del(c.url)).json().data.stale).toBe(true);
  });

  it('5: a read key may read events and facts but gets 403 on PUT and DELETE', async () => {
    const c = await cellFor('text_quote');
    const p = await put(c.url, { type: 'text_quote', value: 'x' }, ws.readKey);
    expect(p.statusCode).toBe(403);
    expect(p.headers['content-type']).toMatch(/text\/plain/);
    await put(c.url, { type: 'text_quote', value: 'x' });
    expect((await del(c.url, ws.readKey)).statusCode).toBe(403);
    expect((await h.request('GET', `${c.url}/events`, { key: ws.readKey })).json().total).toBe(1);
    expect((await h.request('GET', `${c.url}/facts`, { key: ws.readKey })).statusCode).toBe(200);
    expect((await put(c.url, { type: 'text_quote', value: 'x' }, 'folio_wrong')).statusCode).toBe(401);
  });

  it('5.4, 7: an unknown cell, a cell of another table, or a table of another workspace is 404', async () => {
    const unknown = `${tbase}/cells/rcel_nothere0000000000000`;
    for (const r of [
      await put(unknown, { type: 'text_quote', value: 'x' }),
      await del(unknown),
      await h.request('GET', `${unknown}/events`, { key: ws.key }),
      await h.request('GET', `${unknown}/facts`, { key: ws.key }),
    ]) {
      expect(r.statusCode).toBe(404);
      expect(r.json()).toMatchObject({ success: false });
    }

    const other = (
      await h.request('POST', `/v2/workspaces/${ws.id}/tables`, { key: ws.key, body: { name: 'Other' } })
    ).json().data.id as string;
    const elsewhere = await cellFor('text_quote', { table: other });
    const misplaced = `${tbase}/cells/${elsewhere.cellId}`;
    expect((await put(misplaced, { type: 'text_quote', value: 'x' })).statusCode).toBe(404);
    expect((await del(misplaced)).statusCode).toBe(404);
    expect((await h.request('GET', `${misplaced}/events`, { key: ws.key })).statusCode).toBe(404);
    expect((await h.request('GET', `${misplaced}/facts`, { key: ws.key })).statusCode).toBe(404);

    const stranger = await h.workspace();
    const foreign = await put(elsewhere.url, { type: 'text_quote', value: 'x' }, stranger.key);
    expect(foreign.statusCode).toBe(404);
    const foreignPath = elsewhere.url.replace(ws.id, stranger.id);
    expect((await put(foreignPath, { type: 'text_quote', value: 'x' }, stranger.key)).statusCode).toBe(404);
    expect((await h.request('GET', `${foreignPath}/events`, { key: stranger.key })).statusCode).toBe(404);
  });

  it('3.4: cells of an archived column, row or table can no longer be overridden (400)', async () => {
    const a = await cellFor('text_quote');
    await put(a.url, { type: 'text_quote', value: 'kept' });
    await h.request('DELETE', `${tbase}/columns/${a.columnId}`, { key: ws.key });
    expect((await put(a.url, { type: 'text_quote', value: 'x' })).json().error).toMatch(/Column is archived/);
    expect((await del(a.url)).statusCode).toBe(400);
    // Still readable.
    expect((await events(a.url)).length).toBe(1);

    const b = await cellFor('text_quote');
    await h.request('DELETE', `${tbase}/rows/${b.rowId}`, { key: ws.key });
    expect((await put(b.url, { type: 'text_quote', value: 'x' })).json().error).toMatch(/Row is archived/);

    const t = (
      await h.request('POST', `/v2/workspaces/${ws.id}/tables`, { key: ws.key, body: { name: 'Gone' } })
    ).json().data.id as string;
    const c = await cellFor('text_quote', { table: t });
    await h.request('DELETE', `/v2/workspaces/${ws.id}/tables/${t}`, { key: ws.key });
    const r = await put(c.url, { type: 'text_quote', value: 'x' });
    expect(r.statusCode).toBe(400);
    expect(r.json().error).toMatch(/Table is archived/);
    expect((await del(c.url)).statusCode).toBe(400);
  });

  it('2.6: facts come by sortOrder, value parses, and citations name the file datasetId', async () => {
    const c = await cellFor('number');
    const [f1, f2] = [await seedFile(h.db, ws.id), await seedFile(h.db, ws.id)];
    const now = Date.now();
    await replaceCellFacts(
      h.db,
      [c.cellId],
      [
        {
          id: newId('rfac'),
          cell_id: c.cellId,
          file_id: f2,
          role: 'amendment',
          effective_at: now - 1000,
          sort_order: 1,
          status: 'ERROR',
          value: null,
          citations: '[]',
          confidence: null,
          created_at: now,
        },
        {
          id: newId('rfac'),
          cell_id: c.cellId,
          file_id: f1,
          role: null,
          effective_at: null,
          sort_order: 0,
          status: 'SUCCESS',
          value: JSON.stringify({ type: 'number', value: 42 }),
          citations: JSON.stringify([{ fileId: f1, page: 2, quote: 'forty-two', box: [0.1, 0.2, 0.3, 0.4] }]),
          confidence: 0.5,
          created_at: now,
        },
      ],
    );
    const r = await h.request('GET', `${c.url}/facts`, { key: ws.readKey });
    expect(r.statusCode).toBe(200);
    expect(r.json().total).toBe(2);
    const [first, second] = r.json().data;
    expect(first).toMatchObject({
      cellId: c.cellId,
      fileId: f1,
      role: null,
      effectiveAt: null,
      sortOrder: 0,
      status: 'SUCCESS',
      confidence: 0.5,
      createdAt: now,
    });
    expect(first.id).toMatch(/^rfac_/);
    expect(JSON.parse(first.value)).toEqual({ type: 'number', value: 42 });
    const cites = JSON.parse(first.citations);
    expect(cites).toEqual([{ datasetId: f1, page: 2, quote: 'forty-two', box: [0.1, 0.2, 0.3, 0.4] }]);
    expect(Object.keys(cites[0])[0]).toBe('datasetId');
    expect(first.citations).not.toContain('fileId');

    expect(second).toMatchObject({ fileId: f2, role: 'amendment', effectiveAt: now - 1000, status: 'ERROR' });
    expect(JSON.parse(second.value)).toBeNull();
    expect(JSON.parse(second.citations)).toEqual([]);

    // A cell without facts answers an empty list.
    const none = await cellFor('number');
    expect((await h.request('GET', `${none.url}/facts`, { key: ws.key })).json()).toEqual({
      success: true,
      total: 0,
      data: [],
    });
  });
});
