/**
 * Builds `UPDATE <table> SET ... , updated_at = $n WHERE id = $1` from a patch of column
 * names (always code-supplied, never user input) to values; undefined values are skipped.
 */
export function updateByIdSql(
  table: string,
  id: string,
  patch: Record<string, unknown>,
  now: number,
): { sql: string; params: unknown[] } {
  const sets: string[] = [];
  const params: unknown[] = [id];
  for (const [column, value] of Object.entries(patch)) {
    if (value === undefined) continue;
    params.push(value);
    sets.push(`${column} = $${params.length}`);
  }
  params.push(now);
  sets.push(`updated_at = $${params.length}`);
  return { sql: `UPDATE ${table} SET ${sets.join(', ')} WHERE id = $1`, params };
}
