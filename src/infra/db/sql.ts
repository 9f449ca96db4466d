import type { Queryable } from './database.ts';

/**
 * Builds `UPDATE <table> SET ..., updated_at = $n WHERE <key columns match>` from a patch of
 * column names (always code-supplied, never user input) to values; undefined values are skipped.
 */
export function updateWhereSql(
  table: string,
  key: Record<string, unknown>,
  patch: Record<string, unknown>,
  now: number,
): { sql: string; params: unknown[] } {
  const params: unknown[] = [];
  const where = Object.entries(key).map(([column, value]) => {
    params.push(value);
    return `${column} = $${params.length}`;
  });
  const sets: string[] = [];
  for (const [column, value] of Object.entries(patch)) {
    if (value === undefined) continue;
    params.push(value);
    sets.push(`${column} = $${params.length}`);
  }
  params.push(now);
  sets.push(`updated_at = $${params.length}`);
  return { sql: `UPDATE ${table} SET ${sets.join(', ')} WHERE ${where.join(' AND ')}`, params };
}

export function updateByIdSql(table: string, id: string, patch: Record<string, unknown>, now: number) {
  return updateWhereSql(table, { id }, patch, now);
}

/** One page of `SELECT *` and the total count of rows matching the same filter. */
export async function selectPage<R>(
  q: Queryable,
  table: string,
  where: string,
  params: unknown[],
  page: { orderBy: string; offset: number; limit: number },
): Promise<{ rows: R[]; total: number }> {
  const total = (
    await q.query<{ n: number }>(`SELECT count(*)::int AS n FROM ${table} WHERE ${where}`, params)
  )[0].n;
  const rows = await q.query<R>(
    `SELECT * FROM ${table} WHERE ${where} ORDER BY ${page.orderBy} OFFSET ${Math.floor(page.offset)} LIMIT ${Math.floor(page.limit)}`,
    params,
  );
  return { rows, total };
}
