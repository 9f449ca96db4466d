import { createHash, timingSafeEqual } from 'node:crypto';
import type { Clock } from '../infra/clock.ts';
import type { Database } from '../infra/db/database.ts';
import { newId, randomBase62 } from '../infra/ids.ts';
import { type KeyLevel, repos } from '../infra/repos/index.ts';
import { errors } from './errors.ts';

export type { KeyLevel };

/**
 * A secret reads `folio_<20-char key id body>_<43 base62 chars>`: the id body finds the row
 * by primary key, the random part (256 bits) is checked against its hash in constant time.
 */
const SECRET_PATTERN = /^folio_([0-9A-Za-z]{20})_([0-9A-Za-z]{43})$/;
const LAST_USED_INTERVAL_MS = 5 * 60_000;
/** Compared against when the key id is unknown, so that path costs the same as a wrong secret. */
const DUMMY_HASH = createHash('sha256').update('folio-dummy').digest();

export interface ApiKeyView {
  id: string;
  workspaceId: string;
  level: KeyLevel;
  last4: string;
  expiresAt: number | null;
  revokedAt: number | null;
  lastUsedAt: number | null;
  createdAt: number;
}

export interface Principal {
  keyId: string;
  workspaceId: string;
  level: KeyLevel;
}

function hashSecret(secret: string): Buffer {
  return createHash('sha256').update(secret).digest();
}

export async function createApiKey(
  db: Database,
  workspaceId: string,
  input: { level: KeyLevel; expiresAt?: number | null },
  now: number,
): Promise<ApiKeyView & { key: string }> {
  if (!(await repos(db).workspaces.findWorkspace(workspaceId))) throw errors.notFound('Workspace');
  const body = newId('wkskey').slice('wkskey_'.length);
  const key = `folio_${body}_${randomBase62(43)}`;
  const row = {
    id: `wkskey_${body}`,
    workspace_id: workspaceId,
    level: input.level,
    secret_hash: hashSecret(key),
    last4: key.slice(-4),
    expires_at: input.expiresAt ?? null,
    revoked_at: null,
    last_used_at: null,
    created_at: now,
  };
  await repos(db).apiKeys.insertApiKey(row);
  return { ...toView(row), key };
}

function toView(k: {
  id: string;
  workspace_id: string;
  level: KeyLevel;
  last4: string;
  expires_at: number | null;
  revoked_at: number | null;
  last_used_at: number | null;
  created_at: number;
}): ApiKeyView {
  return {
    id: k.id,
    workspaceId: k.workspace_id,
    level: k.level,
    last4: k.last4,
    expiresAt: k.expires_at,
    revokedAt: k.revoked_at,
    lastUsedAt: k.last_used_at,
    createdAt: k.created_at,
  };
}

export async function revokeKey(db: Database, keyId: string, clock: Clock): Promise<ApiKeyView> {
  return db.transaction(async (tx) => {
    if (!(await repos(tx).apiKeys.findApiKey(keyId))) throw errors.notFound('API key');
    await repos(tx).apiKeys.revokeApiKey(keyId, clock());
    return toView((await repos(tx).apiKeys.findApiKey(keyId))!);
  });
}

/** Returns the principal, or null for a missing, malformed, unknown, expired or revoked key. */
export async function authenticate(
  db: Database,
  presented: string | undefined,
  now: number,
): Promise<Principal | null> {
  const match = presented ? SECRET_PATTERN.exec(presented) : null;
  const row = match ? await repos(db).apiKeys.findApiKey(`wkskey_${match[1]}`) : null;
  const expected = row ? Buffer.from(row.secret_hash) : DUMMY_HASH;
  const equal = timingSafeEqual(hashSecret(presented ?? ''), expected);
  if (!row || !equal || row.revoked_at !== null || (row.expires_at !== null && row.expires_at <= now))
    return null;
  if (row.last_used_at === null || row.last_used_at < now - LAST_USED_INTERVAL_MS) {
    // Best effort: a failed bookkeeping write must not fail the request.
    repos(db)
      .apiKeys.touchApiKey(row.id, now, LAST_USED_INTERVAL_MS)
      .catch(() => {});
  }
  return { keyId: row.id, workspaceId: row.workspace_id, level: row.level };
}

export function levelAllows(have: KeyLevel, need: KeyLevel): boolean {
  return need === 'read' || have === 'read_write';
}
