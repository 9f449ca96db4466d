import type { Queryable } from '../db/database.ts';

/** Inserts the value unless one exists (`now` as its creation time), then returns whichever won. */
export async function getOrInsertSetting(
  q: Queryable,
  name: string,
  candidate: string,
  now: number,
): Promise<string> {
  await q.query(
    'INSERT INTO instance_settings (name, value, created_at) VALUES ($1, $2, $3) ON CONFLICT (name) DO NOTHING',
    [name, candidate, now],
  );
  const rows = await q.query<{ value: string }>('SELECT value FROM instance_settings WHERE name = $1', [
    name,
  ]);
  return rows[0].value;
}
