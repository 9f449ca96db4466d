import { mkdir, rm } from 'node:fs/promises';
import path from 'node:path';
import type { FastifyRequest } from 'fastify';
import { errors } from '../domain/errors.ts';
import { formatMb } from '../domain/tiers.ts';
import { registerFile, resolveExpiry, uploadPreflight } from '../domain/uploads.ts';
import type { BlobStore } from '../infra/blob/store.ts';
import type { Clock } from '../infra/clock.ts';
import type { Database } from '../infra/db/database.ts';
import { newId, randomBase62 } from '../infra/ids.ts';
import type { JobRow } from '../infra/repos/index.ts';
import { assertFetchableUrl } from './check-url.ts';
import { detectFileType } from './detect-type.ts';
import { originalKey } from './keys.ts';
import { spoolToFile, TooLargeError } from './spool.ts';

export interface UploadDeps {
  db: Database;
  blobs: BlobStore;
  dataDir: string;
  clock: Clock;
}

/** Room for multipart boundaries and small fields on top of the file itself. */
const MULTIPART_OVERHEAD = 64 * 1024;

const KIND_TYPE = { jpeg: 'image', png: 'image', webp: 'image' } as const;

/**
 * Reads a multipart upload (`file` or `url`, exactly one; `expiresInDays`), checks it
 * completely, stores the bytes, then writes file + job + queued task in one transaction.
 * Nothing is stored when any check fails.
 */
export async function acceptUpload(
  deps: UploadDeps,
  request: FastifyRequest,
  workspaceId: string,
  job: { type: JobRow['type']; apiVersion: JobRow['api_version']; status: 'NOT_STARTED' | 'IN_PROGRESS' },
): Promise<JobRow> {
  if (!request.isMultipart())
    throw errors.badRequest('Send multipart/form-data with a `file` or a `url` field.');
  const pre = await uploadPreflight(deps.db, workspaceId, 'request');
  const tooLarge = () => errors.badRequest(`File too large: ${pre.describe} (${formatMb(pre.maxBytes)}).`);
  const declared = Number(request.headers['content-length'] ?? 0);
  if (declared > pre.maxBytes + MULTIPART_OVERHEAD) throw tooLarge();

  const tmpDir = path.join(deps.dataDir, 'tmp');
  await mkdir(tmpDir, { recursive: true });
  const tmp = path.join(tmpDir, `upload-${randomBase62(16)}`);
  let file: { name: string; size: number; sha256: string } | null = null;
  let url: string | null = null;
  let expiresInDays: number | undefined;
  try {
    for await (const part of request.parts()) {
      if (part.type === 'file') {
        if (part.fieldname !== 'file' || file) {
          part.file.resume();
          if (part.fieldname === 'file') throw errors.badRequest('Send exactly one file.');
          continue;
        }
        try {
          const spooled = await spoolToFile(part.file, tmp, pre.maxBytes);
          if (part.file.truncated) throw new TooLargeError('truncated');
          file = { name: part.filename, ...spooled };
        } catch (err) {
          if (err instanceof TooLargeError) throw tooLarge();
          throw err;
        }
      } else if (part.fieldname === 'url') {
        url = String(part.value).trim();
      } else if (part.fieldname === 'expiresInDays') {
        expiresInDays = Number(part.value);
        if (String(part.value).trim() === '' || Number.isNaN(expiresInDays)) {
          throw errors.badRequest('expiresInDays must be a number.');
        }
      }
    }
    if (file && url) throw errors.badRequest('Send either `file` or `url`, not both.');
    if (!file && !url) throw errors.badRequest('Send a `file` or a `url` field.');
    const expiresAt = resolveExpiry(pre.tier, expiresInDays, deps.clock());
    const id = newId('ds');

    if (url) {
      const checked = await assertFetchableUrl(url);
      return await deps.db.transaction((tx) =>
        registerFile(
          tx,
          {
            id,
            workspaceId,
            type: 'doc',
            fileName: checked.fileName ?? 'download',
            fileExt: '',
            mimeType: 'application/octet-stream',
            fileSize: 0,
            sha256: null,
            sourceUrl: url,
            expiresAt,
          },
          job,
          deps.clock(),
        ),
      );
    }

    const upload = file!;
    if (upload.size === 0) throw errors.badRequest('The file is empty.');
    const detected = await detectFileType(tmp);
    if ('refused' in detected) throw errors.badRequest(detected.refused);
    const key = originalKey(id);
    await deps.blobs.putFile(key, tmp, { contentType: detected.mime });
    try {
      return await deps.db.transaction((tx) =>
        registerFile(
          tx,
          {
            id,
            workspaceId,
            type: detected.kind in KIND_TYPE ? 'image' : 'doc',
            fileName: cleanName(upload.name, detected.ext),
            fileExt: detected.ext,
            mimeType: detected.mime,
            fileSize: upload.size,
            sha256: upload.sha256,
            sourceUrl: null,
            expiresAt,
          },
          job,
          deps.clock(),
        ),
      );
    } catch (err) {
      await deps.blobs.delete(key).catch(() => {});
      throw err;
    }
  } catch (err) {
    throw multipartError(err) ?? err;
  } finally {
    await rm(tmp, { force: true });
  }
}

/** Path parts and control characters never reach a stored name. */
export function cleanName(name: string | undefined, ext: string): string {
  const base = [...path.basename((name ?? '').replace(/\\/g, '/'))]
    .filter((ch) => ch.charCodeAt(0) > 0x1f && ch.charCodeAt(0) !== 0x7f)
    .join('')
    .trim();
  return (base || `upload.${ext}`).slice(0, 255);
}

/** @fastify/multipart's own limits and format errors are client errors: 400. */
export function multipartError(err: unknown) {
  const e = err as { statusCode?: number; code?: string; message?: string };
  if (
    typeof e?.code === 'string' &&
    e.code.startsWith('FST_') &&
    e.statusCode &&
    e.statusCode >= 400 &&
    e.statusCode < 500
  ) {
    return errors.badRequest(`Upload refused: ${e.message}`);
  }
  // The multipart parser's own complaints about the body (no boundary, a boundary that never
  // comes, a body cut off) are plain errors with no code; system errors always carry one.
  if (err instanceof Error && e.code === undefined && MALFORMED_MULTIPART.test(err.message)) {
    return errors.badRequest(`Malformed multipart/form-data body: ${err.message}.`);
  }
  return null;
}

const MALFORMED_MULTIPART = /^(?:Multipart: |Unexpected end of |Malformed part header|Part terminated early)/;
