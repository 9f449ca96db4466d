import type { Queryable } from '../db/database.ts';

/** A fact row; `value` and `citations` are stored as JSON text, citations with `fileId` inside. */
export interface CellFactRow {
  id: string;
  cell_id: string;
  file_id: string;
  role: string | null;
  effective_at: number | null;
  sort_order: number;
  status: string;
  value: string | null;
  citations: string;
  confidence: number | null;
  created_at: number;
}

/** A cell's facts are those of its latest answer: the previous ones go in the same transaction. */
export async function replaceCellFacts(
  q: Queryable,
  cellIds: readonly string[],
  facts: readonly CellFactRow[],
): Promise<void> {
  if (cellIds.length === 0) return;
  await q.query('DELETE FROM cell_facts WHERE cell_id = ANY($1::text[])', [cellIds]);
  if (facts.length === 0) return;
  const col = <K extends keyof CellFactRow>(k: K) => facts.map((f) => f[k]);
  await q.query(
    `INSERT INTO cell_facts (id, cell_id, file_id, role, effective_at, sort_order, status, value, citations, confidence, created_at)
     SELECT * FROM unnest($1::text[], $2::text[], $3::text[], $4::text[], $5::bigint[], $6::int[], $7::text[],
                          $8::text[], $9::text[], $10::real[], $11::bigint[])`,
    [
      col('id'),
      col('cell_id'),
      col('file_id'),
      col('role'),
      col('effective_at'),
      col('sort_order'),
      col('status'),
      col('value'),
      col('citations'),
      col('confidence'),
      col('created_at'),
    ],
  );
}

export async function listCellFacts(q: Queryable, cellId: string): Promise<CellFactRow[]> {
  return q.query<CellFactRow>(
    'SELECT * FROM cell_facts WHERE cell_id = $1 ORDER BY sort_order, created_at, id',
    [cellId],
  );
}
