import type { Database } from '../infra/db/database.ts';
import { repos } from '../infra/repos/index.ts';
import { createApiKey } from './api-keys.ts';
import { createWorkspace } from './workspaces.ts';

export interface FirstRunResult {
  workspaceId: string;
  keyId: string;
  key: string;
  credits: number;
}

/**
 * decisions.md D1: on an empty embedded database, make a workspace and a Read & write key
 * so a new user can call the API at once. Returns null when any workspace exists.
 */
export async function ensureDefaultWorkspace(
  db: Database,
  credits: number,
  now: number,
): Promise<FirstRunResult | null> {
  if ((await repos(db).workspaces.countWorkspaces()) > 0) return null;
  const ws = await createWorkspace(db, { name: 'default', credits }, 'system:first-run', now);
  const key = await createApiKey(db, ws.id, { level: 'read_write' }, now);
  return { workspaceId: ws.id, keyId: key.id, key: key.key, credits: ws.balance };
}
