import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { migrate } from '../src/infra/db/migrate.ts';
import { createTestDatabase, type TestDatabase } from './helpers/database.ts';

describe('migrations', () => {
  let t: TestDatabase;
  beforeAll(async () => {
    t = await createTestDatabase(); // already migrated once
  });
  afterAll(() => t.drop());

  it('re-run cleanly and apply nothing twice', async () => {
    const before = await t.db.query<{ name: string }>('SELECT name FROM schema_migrations ORDER BY name');
    expect(before.length).toBeGreaterThan(0);
    expect(await migrate(t.db)).toEqual([]);
    expect(await Promise.all([migrate(t.db), migrate(t.db)])).toEqual([[], []]);
    const after = await t.db.query<{ name: string }>('SELECT name FROM schema_migrations ORDER BY name');
    expect(after).toEqual(before);
  });
});
