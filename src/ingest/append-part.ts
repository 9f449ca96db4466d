import { createHash } from 'node:crypto';
import { mkdir, rm } from 'node:fs/promises';
import path from 'node:path';
import { pipeline, Transform } from 'node:stream';
import type { FastifyRequest } from 'fastify';
import { errors } from '../domain/errors.ts';
import { formatMb, TIER_LIMITS } from '../domain/tiers.ts';
import {
  liveSession,
  MAX_PART_BYTES,
  parsePartNumber,
  partKey,
  type SessionDeps,
} from '../domain/upload-sessions.ts';
import { randomBase62 } from '../infra/ids.ts';
import { repos } from '../infra/repos/index.ts';
import { multipartError } from './accept-upload.ts';
import { spoolToFile, TooLargeError } from './spool.ts';

/** Room for multipart boundaries and the small fields on top of the chunk itself. */
const MULTIPART_OVERHEAD = 64 * 1024;

interface Stored {
  blobKey: string;
  size: number;
  etag: string;
}

/**
 * One part of a session: `key`, `partNumber`, `file`. When the fields come before the file
 * (the usual order) the chunk streams straight into the blob store; otherwise it is spooled
 * to disk until the key is known. Either way memory stays flat. The part counts only once
 * its row is written, in a transaction that re-checks the session and the plan ceiling.
 */
export async function appendPart(
  deps: SessionDeps & { dataDir: string },
  request: FastifyRequest,
  workspaceId: string,
): Promise<{ etag: string; partNumber: number }> {
  if (!request.isMultipart())
    throw errors.badRequest('Send multipart/form-data with key, partNumber and file.');
  const fields: { key?: string; partNumber?: string } = {};
  let stored: Stored | null = null;
  let spooled: { path: string; size: number; sha256: string } | null = null;
  const tmp = path.join(deps.dataDir, 'tmp', `part-${randomBase62(16)}`);
  try {
    for await (const part of request.parts()) {
      if (part.type === 'field') {
        if (part.fieldname === 'key' || part.fieldname === 'partNumber')
          fields[part.fieldname] = String(part.value);
        continue;
      }
      if (part.fieldname !== 'file') {
        part.file.resume();
        continue;
      }
      if (stored || spooled) throw errors.badRequest('Send exactly one file.');
      try {
        if (fields.key !== undefined && fields.partNumber !== undefined) {
          const limit = await roomFor(deps, request, workspaceId, fields);
          stored = await streamToBlob(deps, part.file, limit);
        } else {
          await mkdir(path.dirname(tmp), { recursive: true });
          spooled = { path: tmp, ...(await spoolToFile(part.file, tmp, MAX_PART_BYTES)) };
        }
        if (part.file.truncated) throw new TooLargeError('truncated');
      } catch (err) {
        if (err instanceof TooLargeError) throw partTooLarge();
        throw err;
      }
    }
    if (!stored && !spooled) throw errors.badRequest('Send the chunk in a `file` field.');
    if (spooled) {
      const limit = await roomFor(deps, request, workspaceId, fields);
      if (spooled.size === 0) throw errors.badRequest('The part is empty.');
      if (spooled.size > limit.maxBytes) throw limit.tooLarge();
      stored = { blobKey: limit.blobKey, size: spooled.size, etag: spooled.sha256 };
      await deps.blobs.putFile(stored.blobKey, spooled.path);
    }
    return await commitPart(deps, workspaceId, fields, stored!);
  } catch (err) {
    if (stored) await deps.blobs.delete(stored.blobKey).catch(() => {});
    throw multipartError(err) ?? err;
  } finally {
    await rm(tmp, { force: true });
  }
}

const partTooLarge = () =>
  errors.badRequest(`A part may be at most ${formatMb(MAX_PART_BYTES)} (${MAX_PART_BYTES} bytes).`);

interface Room {
  partNumber: number;
  blobKey: string;
  /** What this part may weigh: the part cap, or what is left of the plan's ceiling. */
  maxBytes: number;
  /** The refusal for a part over maxBytes, naming the limit that applies. */
  tooLarge: () => Error;
}

/** Checked before a byte is stored, so an over-ceiling part is refused early (400, section 7). */
async function roomFor(
  deps: SessionDeps,
  request: FastifyRequest,
  workspaceId: string,
  fields: { key?: string; partNumber?: string },
): Promise<Room> {
  const now = deps.clock();
  const session = await liveSession(deps.db, workspaceId, fields.key, deps.idleMs, now);
  const partNumber = parsePartNumber(fields.partNumber);
  const w = await repos(deps.db).workspaces.findWorkspace(workspaceId);
  if (!w) throw errors.notFound('Workspace');
  const ceiling = TIER_LIMITS[w.tier].uploadBytes;
  const others = await repos(deps.db).uploadSessions.storedBytes(session.id, partNumber);
  const left = ceiling - others;
  const refusal = () =>
    errors.badRequest(
      `Upload refused by the plan's storage allocation: the ${w.tier} tier allows ${formatMb(ceiling)} per file ` +
        `and this session already holds ${formatMb(others)} in other parts.`,
    );
  if (left <= 0) throw refusal();
  const maxBytes = Math.min(left, MAX_PART_BYTES);
  const tooLarge = left < MAX_PART_BYTES ? refusal : partTooLarge;
  // A declared length already past the room is refused before the body is read.
  const declared = Number(request.headers['content-length'] ?? 0);
  if (declared > maxBytes + MULTIPART_OVERHEAD) throw tooLarge();
  return { partNumber, blobKey: partKey(session.id, partNumber), maxBytes, tooLarge };
}

/** Streams the chunk into the blob store, hashing (the etag) and counting on the way. */
async function streamToBlob(deps: SessionDeps, source: NodeJS.ReadableStream, room: Room): Promise<Stored> {
  const hash = createHash('sha256');
  let size = 0;
  const meter = new Transform({
    transform(chunk: Buffer, _enc, done) {
      size += chunk.length;
      if (size > room.maxBytes) return done(new TooLargeError(`more than ${room.maxBytes} bytes`));
      hash.update(chunk);
      done(null, chunk);
    },
  });
  // Errors on either side end the other, and the blob store's write then fails and cleans up.
  pipeline(source, meter, () => {});
  try {
    await deps.blobs.put(room.blobKey, meter);
    if (size === 0) throw errors.badRequest('The part is empty.');
  } catch (err) {
    await deps.blobs.delete(room.blobKey).catch(() => {});
    // The meter's own error says why the write stopped: which limit ran out.
    if (meter.errored instanceof TooLargeError) throw room.tooLarge();
    throw err;
  }
  return { blobKey: room.blobKey, size, etag: hash.digest('hex') };
}

/** The part row, written only if the session is still live and the ceiling still holds. */
async function commitPart(
  deps: SessionDeps,
  workspaceId: string,
  fields: { key?: string; partNumber?: string },
  stored: Stored,
): Promise<{ etag: string; partNumber: number }> {
  const partNumber = parsePartNumber(fields.partNumber);
  const replaced = await deps.db.transaction(async (tx) => {
    const now = deps.clock();
    // Row lock: appends to one session commit one at a time, so the running total is exact.
    const session = await liveSession(tx, workspaceId, fields.key, deps.idleMs, now, { forUpdate: true });
    const w = await repos(tx).workspaces.findWorkspace(workspaceId);
    const ceiling = TIER_LIMITS[w!.tier].uploadBytes;
    const others = await repos(tx).uploadSessions.storedBytes(session.id, partNumber);
    if (others + stored.size > ceiling) {
      throw errors.badRequest(
        `Upload refused by the plan's storage allocation: the ${w!.tier} tier allows ${formatMb(ceiling)} per file.`,
      );
    }
    const old = await repos(tx).uploadSessions.upsertPart({
      session_id: session.id,
      part_number: partNumber,
      etag: stored.etag,
      byte_size: stored.size,
      blob_key: stored.blobKey,
      created_at: now,
    });
    await repos(tx).uploadSessions.touchUploadSession(session.id, now);
    return old;
  });
  // The replaced part's bytes; if this fails they go with the session folder later.
  if (replaced && replaced !== stored.blobKey) await deps.blobs.delete(replaced).catch(() => {});
  return { etag: stored.etag, partNumber };
}
