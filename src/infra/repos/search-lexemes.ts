import type { Queryable } from '../db/database.ts';

/**
 * Adds a file's pages to its workspace's lexeme counts, once: the marker row and the counts
 * commit together, and a file already marked is skipped. Lexemes are written in sorted
 * order so two files counted at once lock shared rows in the same order (no deadlock). Run
 * it inside a transaction, so the marker and the counts commit together.
 */
export async function countFileLexemes(tx: Queryable, fileId: string): Promise<boolean> {
  const marked = await tx.query(
    `INSERT INTO search_indexed_files (file_id, workspace_id, pages)
     SELECT id, workspace_id, (SELECT count(*) FROM file_pages WHERE file_id = $1) FROM files WHERE id = $1
     ON CONFLICT (file_id) DO NOTHING RETURNING file_id, workspace_id`,
    [fileId],
  );
  if (marked.length === 0) return false;
  await tx.query(
    `INSERT INTO search_lexemes (workspace_id, lexeme, df)
     SELECT $2, u.lexeme, count(*) FROM file_pages p, unnest(p.tsv) u
      WHERE p.file_id = $1 GROUP BY u.lexeme ORDER BY u.lexeme
     ON CONFLICT (workspace_id, lexeme) DO UPDATE SET df = search_lexemes.df + EXCLUDED.df`,
    [fileId, (marked[0] as { workspace_id: string }).workspace_id],
  );
  return true;
}

/** Finished files of the workspace whose pages are not counted yet (ingested before counting existed). */
export async function uncountedFiles(q: Queryable, workspaceId: string): Promise<string[]> {
  const rows = await q.query<{ id: string }>(
    `SELECT f.id FROM files f
      WHERE f.workspace_id = $1 AND f.state <> 'processing' AND f.deleted_at IS NULL
        AND NOT EXISTS (SELECT 1 FROM search_indexed_files s WHERE s.file_id = f.id)`,
    [workspaceId],
  );
  return rows.map((r) => r.id);
}

export interface QueryLexeme {
  lexeme: string;
  /** Its first position in the query text. */
  position: number;
  /** How many counted pages of the workspace contain it. */
  df: number;
}

/**
 * In one round trip: the lexemes of `text` as PostgreSQL's English configuration makes them
 * (stemmed, stop words dropped) in query order, each with its document frequency in the
 * workspace, and how many counted pages there are.
 */
export async function queryLexemeStats(
  q: Queryable,
  workspaceId: string,
  text: string,
): Promise<{ terms: QueryLexeme[]; pages: number }> {
  // Looked up one by one (by key): a join would read the workspace's whole vocabulary.
  const rows = await q.query<{ lexeme: string | null; position: number; df: number }>(
    `SELECT t.lexeme, t.positions[1]::int AS position,
            coalesce((SELECT l.df FROM search_lexemes l WHERE l.workspace_id = $1 AND l.lexeme = t.lexeme), 0)::int AS df
       FROM unnest(to_tsvector('english', $2)) t
     UNION ALL
     SELECT NULL, 0, coalesce(sum(pages), 0)::int FROM search_indexed_files WHERE workspace_id = $1`,
    [workspaceId, text],
  );
  const terms: QueryLexeme[] = [];
  let pages = 0;
  for (const r of rows) {
    if (r.lexeme !== null) terms.push({ lexeme: r.lexeme, position: r.position, df: Number(r.df) });
    else pages = Number(r.df);
  }
  terms.sort((a, b) => a.position - b.position);
  return { terms, pages };
}
