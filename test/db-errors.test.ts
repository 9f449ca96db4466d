/**
 * Issue 14 ("database errors are not mapped") and issue 15 F2/F3: PostgreSQL errors a client
 * can act on become the error table's statuses (interface.md section 7) in one place, on both
 * databases, instead of a 500: a unique or foreign-key race is 409, a value PostgreSQL cannot
 * store (a NUL byte, a number beyond int8) is 400.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AppError } from '../src/domain/errors.ts';
import { type Harness, startHarness, type TestWorkspace } from './helpers/harness.ts';
import { api } from './helpers/runs.ts';
import { seedFiles } from './helpers/seed.ts';

describe('database errors mapped once (issue 14, section 7)', () => {
  let h: Harness;
  let ws: TestWorkspace;

  beforeAll(async () => {
    h = await startHarness();
    ws = await h.workspace();
  });
  afterAll(() => h?.close());

  it('a unique violation is a 409 conflict, a foreign-key violation too, on the database seam itself', async () => {
    await h.db.query('CREATE TABLE dbe_parent (id text PRIMARY KEY)');
    await h.db.query('CREATE TABLE dbe_child (id text PRIMARY KEY, parent text REFERENCES dbe_parent (id))');
    await h.db.query(`INSERT INTO dbe_parent VALUES ('p1')`);
    const unique = await h.db.query(`INSERT INTO dbe_parent VALUES ('p1')`).catch((e: unknown) => e);
    expect(unique).toBeInstanceOf(AppError);
    expect(unique).toMatchObject({ status: 409, code: 'conflict' });
    const fk = await h.db
      .transaction((tx) => tx.query(`INSERT INTO dbe_child VALUES ('c1', 'nope')`))
      .catch((e: unknown) => e);
    expect(fk).toMatchObject({ status: 409, code: 'conflict' });
    // (Plain tables: a temporary one lives on one pooled connection only.)
    // A plain syntax error is ours, not the client's: it stays unmapped (a 500 at the edge).
    const ours = await h.db.query('SELEC 1').catch((e: unknown) => e);
    expect(ours).not.toBeInstanceOf(AppError);
    // The failed transaction rolled back whole.
    expect(await h.db.query('SELECT count(*)::int AS n FROM dbe_child')).toEqual([{ n: 0 }]);
  });

  it('a NUL byte in a JSON string is a 400 with the JSON error body, and nothing is written', async () => {
    const a = api(h, ws);
    const r = await a.call('POST', '/tables', { name: 'before\u0000after' });
    expect(r.status).toBe(400);
    expect(r.body).toMatchObject({ success: false });
    expect(String(r.body.error)).toMatch(/cannot be stored|NUL/i);
    const tables = await a.call('GET', '/tables');
    expect(tables.status).toBe(200);
    expect(JSON.stringify(tables.body)).not.toContain('before');
  });

  it('two identical creates raced together: each answers 200 or 409, never 500, and one row exists', async () => {
    const a = api(h, ws);
    const table = await a.table('race');
    const bundle = await a.must('POST', '/bundles', { name: 'raced' });
    const results = await Promise.all(
      Array.from({ length: 6 }, () =>
        a.call('POST', `/tables/${table}/rows`, { subjectType: 'bundle', subjectId: bundle.id }),
      ),
    );
    for (const r of results) expect([200, 409], r.raw).toContain(r.status);
    const rows = await a.must('GET', `/tables/${table}/rows`);
    expect(rows.filter((row: { subjectId: string }) => row.subjectId === bundle.id)).toHaveLength(1);
  });

  it('each unique constraint a client can race answers 200 or 409, never 500: bundle members, the one primary member, search idempotency keys', async () => {
    const a = api(h, ws);
    const [f1, f2] = await seedFiles(h.db, ws.id, 2);
    const bundle = await a.must('POST', '/bundles', { name: 'raced members' });
    // bundle_members (bundle_id, file_id): the same file added six times at once.
    const adds = await Promise.all(
      Array.from({ length: 6 }, () => a.call('POST', `/bundles/${bundle.id}/files`, { fileIds: [f1] })),
    );
    for (const r of adds) expect([200, 409], r.raw).toContain(r.status);
    await a.must('POST', `/bundles/${bundle.id}/files`, { fileIds: [f2] });
    // bundle_members_one_primary: two members made primary at once.
    const primaries = await Promise.all(
      [f1, f2, f1, f2].map((f) => a.call('PATCH', `/bundles/${bundle.id}/files/${f}`, { isPrimary: true })),
    );
    for (const r of primaries) expect([200, 409], r.raw).toContain(r.status);
    const members = (await a.must('GET', `/bundles/${bundle.id}`)).files as Array<{
      fileId: string;
      isPrimary: boolean;
    }>;
    expect(members.map((m) => m.fileId).sort()).toEqual([f1, f2].sort());
    expect(members.filter((m) => m.isPrimary)).toHaveLength(1);
    // search_requests (workspace, idempotency key): one key raced; charged once.
    const before = await a.balance();
    const searches = await Promise.all(
      Array.from({ length: 5 }, () =>
        h.request('POST', '/v1/search', {
          key: ws.key,
          headers: { 'idempotency-key': 'raced-key-1' },
          body: { query: 'raced search' },
        }),
      ),
    );
    for (const r of searches) expect([200, 409], r.body).toContain(r.statusCode);
    expect(before - (await a.balance())).toBe(1);
  });
});
