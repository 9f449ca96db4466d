import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Harness, startHarness, type TestWorkspace } from './helpers/harness.ts';
import { seedFile } from './helpers/seed.ts';

// interface.md 2.8 (bundle, member), 4.5 (routes and all-or-nothing adds), 3.2 (documentsVersion), 8 (15 files).
describe('bundles', () => {
  let h: Harness;
  let ws: TestWorkspace;
  let base: string;
  const files: string[] = [];
  beforeAll(async () => {
    h = await startHarness();
    ws = await h.workspace();
    base = `/v2/workspaces/${ws.id}/bundles`;
    for (let i = 0; i < 20; i++) files.push(await seedFile(h.db, ws.id, `f${i}.pdf`));
  });
  afterAll(() => h.close());

  const get = async (id: string) =>
    (await h.request('GET', `${base}/${id}`, { key: ws.readKey })).json().data;
  const create = (body: unknown) => h.request('POST', base, { key: ws.key, body });
  const add = (id: string, body: unknown) => h.request('POST', `${base}/${id}/files`, { key: ws.key, body });

  it('creates: first file primary, sortOrder in the order given, documentsVersion 1, no file list on the bundle', async () => {
    const r = await create({ name: 'Deal', color: 'green', fileIds: [files[2], files[0], files[1]] });
    expect(r.statusCode).toBe(200);
    const b = r.json().data;
    expect(b).toEqual({
      id: expect.stringMatching(/^bndl_[0-9A-Za-z]{20}$/),
      workspaceId: ws.id,
      name: 'Deal',
      color: 'green',
      documentsVersion: 1,
      archivedAt: null,
      createdAt: expect.any(Number),
      updatedAt: expect.any(Number),
    });
    const { files: members } = await get(b.id);
    expect(
      members.map((m: { fileId: string; isPrimary: boolean; sortOrder: number }) => [
        m.fileId,
        m.isPrimary,
        m.sortOrder,
      ]),
    ).toEqual([
      [files[2], true, 0],
      [files[0], false, 1],
      [files[1], false, 2],
    ]);
    const listed = (await h.request('GET', base, { key: ws.key }))
      .json()
      .data.find((x: { id: string }) => x.id === b.id);
    expect(listed).not.toHaveProperty('files');
  });

  it('refuses more than 15 files, non-file ids and files of other workspaces with 400, writing nothing', async () => {
    expect((await create({ name: 'x', fileIds: files.slice(0, 16) })).statusCode).toBe(400);
    expect((await create({ name: 'x', fileIds: ['rev_abc'] })).statusCode).toBe(400);
    const other = await h.workspace();
    const foreign = await seedFile(h.db, other.id);
    const before = (await h.request('GET', base, { key: ws.key })).json().total;
    expect((await create({ name: 'x', fileIds: [files[0], foreign] })).statusCode).toBe(400);
    expect((await h.request('GET', base, { key: ws.key })).json().total).toBe(before);
    expect((await create({ name: '' })).statusCode).toBe(400);
    expect((await create({ name: 'n'.repeat(121) })).statusCode).toBe(400);
    expect((await create({ name: 'x', color: 'c'.repeat(17) })).statusCode).toBe(400);
  });

  it('adds files all or nothing; re-adding is a no-op; documentsVersion moves only when membership changes', async () => {
    const b = (await create({ name: 'Adds', fileIds: [files[0]] })).json().data;
    const ok = await add(b.id, {
      fileIds: [files[1], files[2]],
      role: 'amendment',
      effectiveAt: 1_700_000_000_000,
    });
    expect(ok.statusCode).toBe(200);
    expect(ok.json().data.bundle.documentsVersion).toBe(2);
    const m = ok.json().data.files.find((x: { fileId: string }) => x.fileId === files[2]);
    expect(m).toMatchObject({
      role: 'amendment',
      effectiveAt: 1_700_000_000_000,
      isPrimary: false,
      sortOrder: 2,
    });

    const same = await add(b.id, { fileIds: [files[1]] });
    expect(same.json().data.bundle.documentsVersion).toBe(2); // no-op

    const state = JSON.stringify(await get(b.id));
    const other = await h.workspace();
    const foreign = await seedFile(h.db, other.id);
    for (const body of [
      { fileIds: [files[3], foreign] },
      { fileIds: [files[3], 'bndl_x'] },
      { fileIds: files.slice(3, 16) }, // 3 + 13 = 16 members
      { fileIds: [] },
      { fileIds: files.slice(0, 16) },
      { fileIds: [files[3]], role: 'r'.repeat(121) },
    ]) {
      expect((await add(b.id, body)).statusCode, JSON.stringify(body).slice(0, 60)).toBe(400);
    }
    expect(JSON.stringify(await get(b.id))).toBe(state); // nothing written
    const fill = await add(b.id, { fileIds: files.slice(3, 15) }); // exactly 15
    expect(fill.statusCode).toBe(200);
    expect(fill.json().data.files).toHaveLength(15);
  });

  it('keeps at most one primary', async () => {
    const b = (await create({ name: 'Primary', fileIds: [files[0], files[1]] })).json().data;
    const addPrimary = await add(b.id, { fileIds: [files[5], files[6]], isPrimary: true });
    const primaries = (fs: { fileId: string; isPrimary: boolean }[]) =>
      fs.filter((x) => x.isPrimary).map((x) => x.fileId);
    expect(primaries(addPrimary.json().data.files)).toEqual([files[5]]); // first id only
    const p = await h.request('PATCH', `${base}/${b.id}/files/${files[1]}`, {
      key: ws.key,
      body: { isPrimary: true, role: 'main', sortOrder: 9 },
    });
    expect(p.json().data).toMatchObject({ fileId: files[1], isPrimary: true, role: 'main', sortOrder: 9 });
    const after = await get(b.id);
    expect(primaries(after.files)).toEqual([files[1]]);
    expect(after.bundle.documentsVersion).toBe(2); // patching a member is not a membership change
    expect(
      (await h.request('PATCH', `${base}/${b.id}/files/${files[9]}`, { key: ws.key, body: { role: 'x' } }))
        .statusCode,
    ).toBe(404);
  });

  it('removes a member (envelope without data, file untouched) and bumps documentsVersion', async () => {
    const b = (await create({ name: 'Remove', fileIds: [files[0], files[1]] })).json().data;
    const r = await h.request('DELETE', `${base}/${b.id}/files/${files[1]}`, { key: ws.key });
    expect(r.statusCode).toBe(200);
    expect(r.json()).not.toHaveProperty('data');
    expect(r.json().success).toBe(true);
    const after = await get(b.id);
    expect(after.bundle.documentsVersion).toBe(2);
    expect(after.files.map((m: { fileId: string }) => m.fileId)).toEqual([files[0]]);
    expect(
      (await h.request('GET', `/v2/workspaces/${ws.id}/files/${files[1]}`, { key: ws.key })).statusCode,
    ).toBe(200);
    expect((await h.request('DELETE', `${base}/${b.id}/files/${files[1]}`, { key: ws.key })).statusCode).toBe(
      404,
    );
  });

  it('renames and recolours without a bump; archives idempotently and then refuses changes', async () => {
    const b = (await create({ name: 'Name', fileIds: [files[0]] })).json().data;
    const p = await h.request('PATCH', `${base}/${b.id}`, {
      key: ws.key,
      body: { name: 'New', color: null },
    });
    expect(p.json().data).toMatchObject({ name: 'New', color: null, documentsVersion: 1 });
    const a = await h.request('DELETE', `${base}/${b.id}`, { key: ws.key });
    expect(a.json().data.archivedAt).toBeGreaterThan(0);
    expect((await h.request('DELETE', `${base}/${b.id}`, { key: ws.key })).json().data.archivedAt).toBe(
      a.json().data.archivedAt,
    );
    expect((await add(b.id, { fileIds: [files[1]] })).statusCode).toBe(400);
    expect((await h.request('GET', `${base}/bndl_nothere0000000000000`, { key: ws.key })).statusCode).toBe(
      404,
    );
  });
});
