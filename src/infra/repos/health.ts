import type { Queryable } from '../db/database.ts';

/** A round trip that touches no table: the database answers. */
export async function ping(q: Queryable): Promise<void> {
  await q.query('SELECT 1');
}
