import type { Queryable } from '../../src/infra/db/database.ts';
import { newId } from '../../src/infra/ids.ts';
import { type CellRow, insertCell } from '../../src/infra/repos/cells.ts';
import { insertFile } from '../../src/infra/repos/files.ts';

/** A ready file row straight in the store, for tests about tables rather than ingest. */
export async function seedFile(q: Queryable, workspaceId: string, name = 'doc.pdf'): Promise<string> {
  const id = newId('ds');
  const now = Date.now();
  await insertFile(q, {
    id,
    workspace_id: workspaceId,
    type: 'doc',
    file_name: name,
    file_ext: 'pdf',
    mime_type: 'application/pdf',
    file_size: 1000,
    sha256: null,
    source_url: null,
    item_count: 1,
    state: 'ready',
    expires_at: null,
    deleted_at: null,
    created_at: now,
    updated_at: now,
  });
  return id;
}

/** `n` ready files, in order. */
export async function seedFiles(q: Queryable, workspaceId: string, n: number): Promise<string[]> {
  const ids: string[] = [];
  for (let i = 0; i < n; i++) ids.push(await seedFile(q, workspaceId));
  return ids;
}

/** A cell as a run would leave it, until runs exist (issue 4 acceptance). */
export async function seedCell(
  q: Queryable,
  c: {
    tableId: string;
    rowId: string;
    columnId: string;
    columnVersion: number;
    bundleVersion?: number;
    status?: CellRow['status'];
    value?: unknown;
  },
): Promise<string> {
  const id = newId('rcel');
  const now = Date.now();
  await insertCell(q, {
    id,
    table_id: c.tableId,
    row_id: c.rowId,
    column_id: c.columnId,
    status: c.status ?? 'SUCCESS',
    status_text: null,
    block_reason: null,
    value: c.value ?? { type: 'text_quote', value: 'seeded' },
    citations: [],
    confidence: 0.9,
    human_override: null,
    column_version: c.columnVersion,
    bundle_version: c.bundleVersion ?? 1,
    run_id: null,
    created_at: now,
    updated_at: now,
  });
  return id;
}
