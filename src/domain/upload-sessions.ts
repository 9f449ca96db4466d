import { createHash } from 'node:crypto';
import type { BlobStore } from '../infra/blob/store.ts';
import type { Clock } from '../infra/clock.ts';
import type { Database, Queryable } from '../infra/db/database.ts';
import { newId, randomBase62 } from '../infra/ids.ts';
import { repos, type UploadPartRow, type UploadSessionRow } from '../infra/repos/index.ts';
import { AppError, errors } from './errors.ts';
import { formatMb, SINGLE_REQUEST_BYTES } from './tiers.ts';
import { resolveExpiry, uploadPreflight } from './uploads.ts';

/** interface.md 8: every part except the last is at least 5 MB; none is over 100 MB. */
export const MIN_PART_BYTES = 5 * 1024 * 1024;
export const MAX_PART_BYTES = SINGLE_REQUEST_BYTES;
export const MAX_PARTS = 10_000;

/** Chunks live in the blob store, so any API process can take the next append. */
export const sessionFolder = (sessionId: string) => `upload-sessions/${sessionId}/`;
export const partKey = (sessionId: string, partNumber: number) =>
  // A fresh name per upload: a re-sent part never overwrites bytes another request may be reading.
  `${sessionFolder(sessionId)}parts/${String(partNumber).padStart(5, '0')}-${randomBase62(10)}`;

/** Extensions worth starting a session for; the bytes are still sniffed at the end. */
const ACCEPTED_EXTS = new Set(['pdf', 'doc', 'docx', 'pptx', 'xlsx', 'jpg', 'jpeg', 'png', 'webp']);
const MIME = /^[A-Za-z0-9][\w.+-]*\/[\w.+-]+$/;
const KEY_PREFIX = 'upk_';

/** The key is a bearer secret: only this hash is stored, and lookups go through it. */
export const hashSessionKey = (key: string) => createHash('sha256').update(key).digest('hex');

export interface StartFields {
  fileName?: string;
  fileExt?: string;
  fileType?: string;
  jobType?: string;
  expiryInDays?: string;
}

/** Validates everything, then writes the session; returns the key, which is never stored. */
export async function startUploadSession(
  db: Database,
  workspaceId: string,
  f: StartFields,
  clock: Clock,
): Promise<{ key: string }> {
  const fileName = (f.fileName ?? '').trim();
  if (!fileName) throw errors.badRequest('fileName is required.');
  if (fileName.length > 255) throw errors.badRequest('fileName must be at most 255 characters.');
  const fileExt = (f.fileExt ?? '').trim().replace(/^\./, '').toLowerCase();
  if (!fileExt) throw errors.badRequest('fileExt is required.');
  if (!ACCEPTED_EXTS.has(fileExt)) {
    throw errors.badRequest(
      `fileExt "${fileExt.slice(0, 16)}" is not accepted. Supported: pdf, doc, docx, pptx, xlsx, jpg, png, webp.`,
    );
  }
  const fileType = (f.fileType ?? '').split(';')[0]!.trim().toLowerCase();
  if (!fileType) throw errors.badRequest('fileType (a MIME type) is required.');
  if (fileType.length > 255 || !MIME.test(fileType)) {
    throw errors.badRequest('fileType must be a MIME type such as application/pdf.');
  }
  const jobType = f.jobType?.trim();
  if (jobType !== 'extract' && jobType !== 'vectorize') {
    throw errors.badRequest('jobType must be extract or vectorize.');
  }
  const expiryInDays = parseExpiry(f.expiryInDays);
  const pre = await uploadPreflight(db, workspaceId, 'url');
  const now = clock();
  // Checked now against the plan so a bad value fails before any byte is sent.
  expiryAt(pre.tier, expiryInDays, now);

  const key = `${KEY_PREFIX}${randomBase62(43)}`;
  const row: UploadSessionRow = {
    id: newId('upls'),
    workspace_id: workspaceId,
    key_hash: hashSessionKey(key),
    file_name: fileName,
    file_ext: fileExt,
    file_type: fileType,
    job_type: jobType,
    expiry_in_days: expiryInDays ?? null,
    state: 'open',
    file_id: null,
    last_activity_at: now,
    chunks_deleted_at: null,
    created_at: now,
    updated_at: now,
  };
  await repos(db).uploadSessions.insertUploadSession(row);
  return { key };
}

function parseExpiry(raw: string | undefined): number | undefined {
  if (raw === undefined) return undefined;
  const n = Number(raw);
  if (raw.trim() === '' || Number.isNaN(n)) throw errors.badRequest('expiryInDays must be a number.');
  return n;
}

/** resolveExpiry speaks of `expiresInDays` (the single-request field); sessions call it `expiryInDays`. */
export function expiryAt(tier: Parameters<typeof resolveExpiry>[0], days: number | undefined, now: number) {
  try {
    return resolveExpiry(tier, days, now);
  } catch (err) {
    if (err instanceof AppError)
      throw errors.badRequest(err.message.replace('expiresInDays', 'expiryInDays'));
    throw err;
  }
}

/**
 * The caller's session, live: unknown keys, another workspace's keys, finished sessions and
 * sessions idle past the setting are all refused with 400 (interface.md 7).
 */
export async function liveSession(
  q: Queryable,
  workspaceId: string,
  key: string | undefined,
  idleMs: number,
  now: number,
  opts: { forUpdate?: boolean } = {},
): Promise<UploadSessionRow> {
  if (!key) throw errors.badRequest('key is required.');
  const s =
    key.length <= 128
      ? await repos(q).uploadSessions.findUploadSession(workspaceId, hashSessionKey(key.trim()), opts)
      : null;
  if (!s) throw errors.badRequest('Unknown upload session: check the key, or start a new session.');
  const idle = s.last_activity_at < now - idleMs;
  if (s.state === 'open' && !idle) return s;
  const why: Record<UploadSessionRow['state'], string> = {
    open: 'expired after being idle; start a new session',
    ending: 'is being ended by another request',
    ended: 'has already ended',
    aborted: 'was aborted; start a new session',
    expired: 'expired after being idle; start a new session',
  };
  throw errors.badRequest(`This upload session ${why[s.state]}.`);
}

/** `partNumber` arrives as a form string: a whole number from 1 to 10,000. */
export function parsePartNumber(raw: string | undefined): number {
  if (raw === undefined || raw.trim() === '') throw errors.badRequest('partNumber is required.');
  const text = raw.trim();
  const n = Number(text);
  if (!/^\d{1,5}$/.test(text) || n < 1 || n > MAX_PARTS) {
    throw errors.badRequest(`partNumber must be a whole number from 1 to ${MAX_PARTS}.`);
  }
  return n;
}

export interface ListedPart {
  etag: string;
  partNumber: number;
}

/** The `parts` field of end: the JSON array of every append response. */
export function parsePartList(raw: string | undefined): ListedPart[] {
  if (raw === undefined || raw.trim() === '') throw errors.badRequest('parts is required.');
  let value: unknown;
  try {
    value = JSON.parse(raw);
  } catch {
    throw errors.badRequest('parts must be a JSON array of {etag, partNumber}.');
  }
  if (!Array.isArray(value) || value.length === 0) {
    throw errors.badRequest('parts must be a non-empty JSON array of {etag, partNumber}.');
  }
  if (value.length > MAX_PARTS) throw errors.badRequest(`parts may list at most ${MAX_PARTS} parts.`);
  const listed = value.map((item, i) => {
    const p = item as { etag?: unknown; partNumber?: unknown };
    const n = typeof p?.partNumber === 'string' ? Number(p.partNumber) : p?.partNumber;
    if (typeof p?.etag !== 'string' || p.etag.length === 0 || p.etag.length > 128) {
      throw errors.badRequest(`parts[${i}].etag must be the etag string returned by append.`);
    }
    if (typeof n !== 'number' || !Number.isInteger(n) || n < 1 || n > MAX_PARTS) {
      throw errors.badRequest(`parts[${i}].partNumber must be a whole number from 1 to ${MAX_PARTS}.`);
    }
    return { etag: p.etag, partNumber: n };
  });
  return listed.sort((a, b) => a.partNumber - b.partNumber);
}

/**
 * The listed parts against the stored ones: numbered 1..n without gaps or repeats, each
 * stored with the same etag, nothing stored left out, sizes within the part rules and the
 * whole within the plan's ceiling. Returns the stored parts in order.
 */
export function checkParts(
  listed: ListedPart[],
  stored: UploadPartRow[],
  ceiling: { maxBytes: number; describe: string },
): UploadPartRow[] {
  const byNumber = new Map(stored.map((p) => [p.part_number, p]));
  const ordered: UploadPartRow[] = [];
  for (const [i, l] of listed.entries()) {
    if (l.partNumber !== i + 1) {
      throw errors.badRequest(
        l.partNumber === i
          ? `parts lists part ${l.partNumber} twice.`
          : `Part numbers must run from 1 without gaps: part ${i + 1} is missing.`,
      );
    }
    const p = byNumber.get(l.partNumber);
    if (!p) throw errors.badRequest(`Part ${l.partNumber} was never uploaded to this session.`);
    if (p.etag !== l.etag) {
      throw errors.badRequest(`Part ${l.partNumber}: the etag does not match the stored part.`);
    }
    ordered.push(p);
  }
  const unlisted = stored.find((p) => p.part_number > listed.length);
  if (unlisted) {
    throw errors.badRequest(
      `Part ${unlisted.part_number} was uploaded but is not in parts; list every part, or abort and start again.`,
    );
  }
  for (const p of ordered.slice(0, -1)) {
    if (p.byte_size < MIN_PART_BYTES) {
      throw errors.badRequest(
        `Part ${p.part_number} is ${p.byte_size} bytes: every part except the last must be at least 5 MB (${MIN_PART_BYTES} bytes).`,
      );
    }
  }
  const total = ordered.reduce((sum, p) => sum + p.byte_size, 0);
  if (total > ceiling.maxBytes) {
    throw errors.badRequest(
      `Upload refused: ${formatMb(total)} is more than the storage allocation allows (${ceiling.describe}).`,
    );
  }
  return ordered;
}

export interface SessionDeps {
  db: Database;
  blobs: BlobStore;
  idleMs: number;
  /** Activity, idle expiry and chunk removal are timed by this clock. */
  clock: Clock;
}

/** Abort: the session is closed for good and its chunks deleted (4.8). */
export async function abortUploadSession(deps: SessionDeps, workspaceId: string, key: string | undefined) {
  const now = deps.clock();
  const s = await liveSession(deps.db, workspaceId, key, deps.idleMs, now);
  if (
    !(await repos(deps.db).uploadSessions.transitionUploadSession(
      s.id,
      'open',
      'aborted',
      now - deps.idleMs,
      now,
    ))
  ) {
    // Another request ended, aborted or expired it in between: report what it is now.
    await liveSession(deps.db, workspaceId, key, deps.idleMs, deps.clock());
    throw errors.badRequest('This upload session changed meanwhile; try again.');
  }
  await removeChunks(deps, s.id);
}

/** Deletes a finished session's chunks; when this fails the sweep tries again later. */
export async function removeChunks(deps: Pick<SessionDeps, 'db' | 'blobs' | 'clock'>, sessionId: string) {
  await deps.blobs.deletePrefix(sessionFolder(sessionId));
  await repos(deps.db).uploadSessions.markChunksDeleted(sessionId, deps.clock());
}

/**
 * Expires sessions idle longer than idleMs and removes their chunks, and finishes any chunk
 * removal an end or abort left undone. Each session is claimed by one process (SKIP LOCKED
 * plus a bumped timestamp), so any number of workers may sweep at once.
 */
export async function sweepUploadSessions(
  deps: Pick<SessionDeps, 'db' | 'blobs' | 'clock'>,
  idleMs: number,
  now = deps.clock(),
): Promise<number> {
  const BATCH = 100;
  let total = 0;
  let failure: unknown = null;
  for (;;) {
    const ids = await repos(deps.db).uploadSessions.claimSessionsToSweep(now - idleMs, deps.clock(), BATCH);
    for (const id of ids) {
      try {
        await removeChunks(deps, id);
        total++;
      } catch (err) {
        failure ??= err;
      }
    }
    if (ids.length < BATCH) break;
  }
  if (failure) throw failure;
  return total;
}
