import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Harness, startHarness, type TestWorkspace } from './helpers/harness.ts';

// interface.md 4.1 (v2 tables), 2.1 (fields) and 8 (limits).
describe('v2 tables', () => {
  let h: Harness;
  let ws: TestWorkspace;
  let base: string;
  beforeAll(async () => {
    h = await startHarness();
    ws = await h.workspace();
    base = `/v2/workspaces/${ws.id}/tables`;
  });
  afterAll(() => h.close());

  const create = (body: unknown) => h.request('POST', base, { key: ws.key, body });

  it('creates with defaults and returns the table in the envelope', async () => {
    const r = await create({ name: 'Contracts' });
    expect(r.statusCode).toBe(200);
    const body = r.json();
    expect(body).toMatchObject({ success: true, total: 1 });
    expect(body.data).toEqual({
      id: expect.stringMatching(/^rev_[0-9A-Za-z]{20}$/),
      workspaceId: ws.id,
      name: 'Contracts',
      standing: false,
      color: null,
      locale: null,
      archivedAt: null,
      createdAt: expect.any(Number),
      updatedAt: expect.any(Number),
    });
    expect(Math.abs(body.data.createdAt - Date.now())).toBeLessThan(60_000);
  });

  it('accepts names of 1 and 120 chars and 16-char color and locale', async () => {
    expect((await create({ name: 'a' })).statusCode).toBe(200);
    const r = await create({
      name: 'n'.repeat(120),
      color: 'c'.repeat(16),
      locale: 'l'.repeat(16),
      standing: true,
    });
    expect(r.statusCode).toBe(200);
    expect(r.json().data).toMatchObject({ standing: true, color: 'c'.repeat(16), locale: 'l'.repeat(16) });
  });

  it.each([
    ['empty name', { name: '' }],
    ['121-char name', { name: 'n'.repeat(121) }],
    ['17-char color', { name: 'x', color: 'c'.repeat(17) }],
    ['17-char locale', { name: 'x', locale: 'l'.repeat(17) }],
    ['missing name', {}],
    ['number as name', { name: 12 }],
    ['string as standing', { name: 'x', standing: 'yes' }],
  ])('refuses %s with 400 JSON', async (_label, body) => {
    const r = await create(body);
    expect(r.statusCode).toBe(400);
    expect(r.headers['content-type']).toMatch(/^application\/json/);
    expect(r.json()).toEqual({ success: false, error: expect.any(String) });
  });

  it('reports every validation problem at once', async () => {
    const r = await create({ name: '', color: 'c'.repeat(17) });
    expect(r.json().error).toMatch(/name/);
    expect(r.json().error).toMatch(/color/);
  });

  it('strips unknown body keys silently', async () => {
    const r = await create({
      name: 'strip',
      id: 'rev_mine',
      workspaceId: 'wks_x',
      archivedAt: 5,
      bogus: true,
    });
    expect(r.statusCode).toBe(200);
    expect(r.json().data.id).not.toBe('rev_mine');
    expect(r.json().data.workspaceId).toBe(ws.id);
    expect(r.json().data.archivedAt).toBeNull();
    expect(r.json().data).not.toHaveProperty('bogus');
  });

  it('lists metadata newest first with total', async () => {
    const r = await h.request('GET', base, { key: ws.readKey });
    const body = r.json();
    expect(body.success).toBe(true);
    expect(body.total).toBe(body.data.length);
    expect(body.data.length).toBeGreaterThanOrEqual(3);
    const times = body.data.map((t: { createdAt: number }) => t.createdAt);
    expect([...times].sort((a, b) => b - a)).toEqual(times);
  });

  it('gets one table with empty columns, rows and cells', async () => {
    const t = (await create({ name: 'one' })).json().data;
    const r = await h.request('GET', `${base}/${t.id}`, { key: ws.readKey });
    expect(r.json()).toEqual({
      success: true,
      total: 1,
      data: { table: t, columns: [], rows: [], cells: [] },
    });
  });

  it('patches fields, keeps others, and refuses bad values', async () => {
    const t = (await create({ name: 'before', color: 'red' })).json().data;
    const r = await h.request('PATCH', `${base}/${t.id}`, {
      key: ws.key,
      body: { name: 'after', locale: 'fr-FR' },
    });
    expect(r.statusCode).toBe(200);
    expect(r.json().data).toMatchObject({ name: 'after', locale: 'fr-FR', color: 'red', standing: false });
    expect(r.json().data.updatedAt).toBeGreaterThanOrEqual(t.updatedAt);

    const cleared = await h.request('PATCH', `${base}/${t.id}`, { key: ws.key, body: { color: null } });
    expect(cleared.json().data.color).toBeNull();

    const bad = await h.request('PATCH', `${base}/${t.id}`, { key: ws.key, body: { name: 'n'.repeat(121) } });
    expect(bad.statusCode).toBe(400);
    const after = await h.request('GET', `${base}/${t.id}`, { key: ws.key });
    expect(after.json().data.table.name).toBe('after');
  });

  it('archives: sets archivedAt, stays listed, idempotent, no longer editable', async () => {
    const t = (await create({ name: 'old' })).json().data;
    const r = await h.request('DELETE', `${base}/${t.id}`, { key: ws.key });
    expect(r.statusCode).toBe(200);
    const archivedAt = r.json().data.archivedAt;
    expect(archivedAt).toBeGreaterThan(0);
    const again = await h.request('DELETE', `${base}/${t.id}`, { key: ws.key });
    expect(again.json().data.archivedAt).toBe(archivedAt);
    const listed = (await h.request('GET', base, { key: ws.key })).json().data;
    expect(listed.find((x: { id: string }) => x.id === t.id).archivedAt).toBe(archivedAt);
    const patch = await h.request('PATCH', `${base}/${t.id}`, { key: ws.key, body: { name: 'x' } });
    expect(patch.statusCode).toBe(400);
  });
});
