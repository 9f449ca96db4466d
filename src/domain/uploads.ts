import type { Queryable } from '../infra/db/database.ts';
import { type FileRow, type JobRow, repos, type Tier } from '../infra/repos/index.ts';
import { errors } from './errors.ts';
import { queueIngestJob } from './jobs.ts';
import { formatMb, SINGLE_REQUEST_BYTES, TIER_LIMITS } from './tiers.ts';

const DAY_MS = 86_400_000;

/**
 * Checked before a byte is read: ingest refuses (402) only a balance that cannot pay for
 * one page (D4); the size ceiling is the smaller of the tier's and, for a multipart
 * request, the single-request cap.
 */
export async function uploadPreflight(
  q: Queryable,
  workspaceId: string,
  via: 'request' | 'url',
): Promise<{ tier: Tier; maxBytes: number; describe: string }> {
  const w = await repos(q).workspaces.findWorkspace(workspaceId);
  if (!w) throw errors.notFound('Workspace');
  if (w.balance < 1) {
    throw errors.paymentRequired('Insufficient credits: ingest costs 1 credit per page.', {
      balance: w.balance,
      cost: 1,
    });
  }
  const tierBytes = TIER_LIMITS[w.tier].uploadBytes;
  const maxBytes = via === 'request' ? Math.min(tierBytes, SINGLE_REQUEST_BYTES) : tierBytes;
  const why =
    maxBytes === tierBytes
      ? `the ${w.tier} tier allows ${formatMb(tierBytes)} per file`
      : `a single request carries at most ${formatMb(SINGLE_REQUEST_BYTES)}; use a url or an upload session for larger files`;
  return { tier: w.tier, maxBytes, describe: why };
}

/** `expiresInDays`: a positive number of days within the tier's maximum; -1 or absent means never. */
export function resolveExpiry(tier: Tier, expiresInDays: number | undefined, now: number): number | null {
  if (expiresInDays === undefined) return null;
  if (expiresInDays === -1) {
    if (tier === 'starter' || tier === 'bronze') {
      throw errors.badRequest(`expiresInDays -1 (never) is available on the silver and gold tiers only.`);
    }
    return null;
  }
  if (!Number.isFinite(expiresInDays) || expiresInDays <= 0) {
    throw errors.badRequest('expiresInDays must be a positive number of days (or -1 for never).');
  }
  const max = TIER_LIMITS[tier].maxExpiryDays;
  if (max !== null && expiresInDays > max) {
    throw errors.badRequest(`expiresInDays must be at most ${max} on the ${tier} tier.`);
  }
  return now + Math.round(expiresInDays * DAY_MS);
}

export interface NewFile {
  id: string;
  workspaceId: string;
  type: FileRow['type'];
  fileName: string;
  fileExt: string;
  mimeType: string;
  fileSize: number;
  sha256: string | null;
  sourceUrl: string | null;
  expiresAt: number | null;
}

/** The file, its job and the queued work, in the caller's transaction. */
export async function registerFile(
  tx: Queryable,
  f: NewFile,
  job: { type: JobRow['type']; apiVersion: JobRow['api_version']; status: 'NOT_STARTED' | 'IN_PROGRESS' },
  now: number,
): Promise<JobRow> {
  await repos(tx).files.insertFile({
    id: f.id,
    workspace_id: f.workspaceId,
    type: f.type,
    file_name: f.fileName,
    file_ext: f.fileExt,
    mime_type: f.mimeType,
    file_size: f.fileSize,
    sha256: f.sha256,
    source_url: f.sourceUrl,
    item_count: 0,
    state: 'processing',
    expires_at: f.expiresAt,
    deleted_at: null,
    created_at: now,
    updated_at: null,
  });
  return queueIngestJob(tx, { workspaceId: f.workspaceId, fileId: f.id }, job, now);
}
