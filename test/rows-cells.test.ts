import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Harness, startHarness, type TestWorkspace } from './helpers/harness.ts';
import { seedCell, seedFile } from './helpers/seed.ts';

// decisions.md D2 (rows), interface.md 4.1 (GET table), 4.4 (GET cells), 2.4 (cell), 3.2 (staleness), 3.4 (archiving).
describe('rows, cells and staleness', () => {
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

  const addRow = (body: unknown) => h.request('POST', `${tbase}/rows`, { key: ws.key, body });

  it('adds rows for files and bundles of the workspace; the same subject twice returns the existing row', async () => {
    const file = await seedFile(h.db, ws.id);
    const r = await addRow({ subjectType: 'file', subjectId: file });
    expect(r.statusCode).toBe(200);
    expect(r.json().data).toMatchObject({
      tableId,
      subjectType: 'file',
      subjectId: file,
      sortOrder: 0,
      archivedAt: null,
    });
    expect(r.json().data.id).toMatch(/^rrow_/);
    const again = await addRow({ subjectType: 'file', subjectId: file });
    expect(again.json().data.id).toBe(r.json().data.id);
    const bundle = (
      await h.request('POST', `/v2/workspaces/${ws.id}/bundles`, {
        key: ws.key,
        body: { name: 'B', fileIds: [file] },
      })
    ).json().data;
    expect((await addRow({ subjectType: 'bundle', subjectId: bundle.id })).json().data).toMatchObject({
      subjectType: 'bundle',
      sortOrder: 1,
    });

    const other = await h.workspace();
    const foreign = await seedFile(h.db, other.id);
    for (const body of [
      { subjectType: 'file', subjectId: foreign },
      { subjectType: 'file', subjectId: bundle.id },
      { subjectType: 'bundle', subjectId: file },
      { subjectType: 'folder', subjectId: file },
      { subjectType: 'file' },
    ]) {
      expect((await addRow(body)).statusCode).toBe(400);
    }
    const rows = (await h.request('GET', `${tbase}/rows`, { key: ws.readKey })).json();
    expect(rows.total).toBe(2);
  });

  it('archives rows, which stay listed', async () => {
    const row = (await addRow({ subjectType: 'file', subjectId: await seedFile(h.db, ws.id) })).json().data;
    const a = await h.request('DELETE', `${tbase}/rows/${row.id}`, { key: ws.key });
    expect(a.json().data.archivedAt).toBeGreaterThan(0);
    const listed = (await h.request('GET', `${tbase}/rows`, { key: ws.key }))
      .json()
      .data.find((r: { id: string }) => r.id === row.id);
    expect(listed.archivedAt).toBe(a.json().data.archivedAt);
    expect(
      (await h.request('DELETE', `${tbase}/rows/rrow_nothere0000000000000`, { key: ws.key })).statusCode,
    ).toBe(404);
  });

  it('computes stale from the column version and the bundle documentsVersion, and GET table returns it all', async () => {
    const t = (
      await h.request('POST', `/v2/workspaces/${ws.id}/tables`, { key: ws.key, body: { name: 'S' } })
    ).json().data;
    const base = `/v2/workspaces/${ws.id}/tables/${t.id}`;
    const [f1, f2, f3] = [
      await seedFile(h.db, ws.id),
      await seedFile(h.db, ws.id),
      await seedFile(h.db, ws.id),
    ];
    const bundle = (
      await h.request('POST', `/v2/workspaces/${ws.id}/bundles`, {
        key: ws.key,
        body: { name: 'B', fileIds: [f1, f2] },
      })
    ).json().data;
    const fileRow = (
      await h.request('POST', `${base}/rows`, { key: ws.key, body: { subjectType: 'file', subjectId: f3 } })
    ).json().data;
    const bundleRow = (
      await h.request('POST', `${base}/rows`, {
        key: ws.key,
        body: { subjectType: 'bundle', subjectId: bundle.id },
      })
    ).json().data;
    const col = (
      await h.request('POST', `${base}/columns`, { key: ws.key, body: { name: 'Q', prompt: 'first' } })
    ).json().data;
    const col2 = (
      await h.request('POST', `${base}/columns`, { key: ws.key, body: { name: 'R', prompt: 'other' } })
    ).json().data;
    const c1 = await seedCell(h.db, { tableId: t.id, rowId: fileRow.id, columnId: col.id, columnVersion: 1 });
    const c2 = await seedCell(h.db, {
      tableId: t.id,
      rowId: bundleRow.id,
      columnId: col.id,
      columnVersion: 1,
      bundleVersion: 1,
    });
    const c3 = await seedCell(h.db, {
      tableId: t.id,
      rowId: bundleRow.id,
      columnId: col2.id,
      columnVersion: 1,
      bundleVersion: 1,
      status: 'ERROR',
    });

    const stale = async () =>
      Object.fromEntries(
        (await h.request('GET', `${base}/cells`, { key: ws.readKey }))
          .json()
          .data.map((c: { id: string; stale: boolean }) => [c.id, c.stale]),
      );
    expect(await stale()).toEqual({ [c1]: false, [c2]: false, [c3]: false });

    await h.request('PATCH', `${base}/columns/${col.id}`, {
      key: ws.key,
      body: { name: 'renamed', creditRate: 10 },
    });
    expect(await stale()).toEqual({ [c1]: false, [c2]: false, [c3]: false });
    await h.request('PATCH', `${base}/columns/${col.id}`, { key: ws.key, body: { prompt: 'second' } });
    expect(await stale()).toEqual({ [c1]: true, [c2]: true, [c3]: false });

    await h.request('PATCH', `/v2/workspaces/${ws.id}/bundles/${bundle.id}`, {
      key: ws.key,
      body: { name: 'renamed' },
    });
    expect((await stale())[c3]).toBe(false);
    await h.request('POST', `/v2/workspaces/${ws.id}/bundles/${bundle.id}/files`, {
      key: ws.key,
      body: { fileIds: [f3] },
    });
    expect(await stale()).toEqual({ [c1]: true, [c2]: true, [c3]: true });

    // Archived columns stay listed with their cells readable (3.4).
    await h.request('DELETE', `${base}/columns/${col2.id}`, { key: ws.key });
    const full = (await h.request('GET', base, { key: ws.readKey })).json();
    expect(full.data.columns.map((c: { id: string }) => c.id)).toEqual([col.id, col2.id]);
    expect(full.data.columns[1].archivedAt).toBeGreaterThan(0);
    expect(full.data.rows.map((r: { id: string }) => r.id)).toEqual([fileRow.id, bundleRow.id]);
    const cells = full.data.cells as Record<string, unknown>[];
    expect(cells).toHaveLength(3);
    const errored = cells.find((c) => c.id === c3)!;
    expect(errored).toMatchObject({
      status: 'ERROR',
      value: null,
      citations: [],
      confidence: null,
      columnId: col2.id,
      stale: true,
    });
    const good = cells.find((c) => c.id === c1)!;
    expect(good).toMatchObject({
      status: 'SUCCESS',
      value: { type: 'text_quote', value: 'seeded' },
      columnVersion: 1,
      bundleVersion: 1,
      humanOverride: null,
    });
  });

  it('GET table serves an ETag, answers 304 while nothing changed, and never serves a stale copy', async () => {
    const t = (
      await h.request('POST', `/v2/workspaces/${ws.id}/tables`, { key: ws.key, body: { name: 'C' } })
    ).json().data;
    const base = `/v2/workspaces/${ws.id}/tables/${t.id}`;
    const file = await seedFile(h.db, ws.id);
    const bundle = (
      await h.request('POST', `/v2/workspaces/${ws.id}/bundles`, {
        key: ws.key,
        body: { name: 'B', fileIds: [file] },
      })
    ).json().data;
    const row = (
      await h.request('POST', `${base}/rows`, {
        key: ws.key,
        body: { subjectType: 'bundle', subjectId: bundle.id },
      })
    ).json().data;
    const col = (
      await h.request('POST', `${base}/columns`, { key: ws.key, body: { name: 'Q', prompt: 'p' } })
    ).json().data;
    const cell = await seedCell(h.db, { tableId: t.id, rowId: row.id, columnId: col.id, columnVersion: 1 });

    const first = await h.request('GET', base, { key: ws.key });
    const etag = first.headers.etag as string;
    expect(etag).toMatch(/^"/);
    expect(first.json().data.cells[0]).toMatchObject({ id: cell, stale: false });
    expect(
      (await h.request('GET', base, { key: ws.key, headers: { 'if-none-match': etag } })).statusCode,
    ).toBe(304);

    await h.db.query(`UPDATE cells SET value = '{"type":"text_quote","value":"changed"}' WHERE id = $1`, [
      cell,
    ]);
    const changed = await h.request('GET', base, { key: ws.key, headers: { 'if-none-match': etag } });
    expect(changed.statusCode).toBe(200);
    expect(changed.json().data.cells[0].value.value).toBe('changed');

    await h.request('POST', `/v2/workspaces/${ws.id}/bundles/${bundle.id}/files`, {
      key: ws.key,
      body: { fileIds: [await seedFile(h.db, ws.id)] },
    });
    expect((await h.request('GET', base, { key: ws.key })).json().data.cells[0].stale).toBe(true);
    await h.request('PATCH', base, { key: ws.key, body: { name: 'renamed' } });
    expect((await h.request('GET', base, { key: ws.key })).json().data.table.name).toBe('renamed');
    await h.request('PATCH', `${base}/columns/${col.id}`, { key: ws.key, body: { name: 'Q2' } });
    expect((await h.request('GET', base, { key: ws.key })).json().data.columns[0].name).toBe('Q2');
  });

  it('GET cells answers only existing cells, and an empty array for a table without any', async () => {
    const t = (
      await h.request('POST', `/v2/workspaces/${ws.id}/tables`, { key: ws.key, body: { name: 'E' } })
    ).json().data;
    expect(
      (await h.request('GET', `/v2/workspaces/${ws.id}/tables/${t.id}/cells`, { key: ws.key })).json(),
    ).toEqual({ success: true, total: 0, data: [] });
  });
});
