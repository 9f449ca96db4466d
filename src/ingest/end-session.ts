import { createHash } from 'node:crypto';
import { once } from 'node:events';
import { createWriteStream } from 'node:fs';
import { mkdir, rm } from 'node:fs/promises';
import path from 'node:path';
import { finished } from 'node:stream/promises';
import { errors } from '../domain/errors.ts';
import {
  checkParts,
  expiryAt,
  liveSession,
  parsePartList,
  removeChunks,
  type SessionDeps,
} from '../domain/upload-sessions.ts';
import { registerFile, uploadPreflight } from '../domain/uploads.ts';
import { newId, randomBase62 } from '../infra/ids.ts';
import { type JobRow, repos, type UploadPartRow, type UploadSessionRow } from '../infra/repos/index.ts';
import { cleanName } from './accept-upload.ts';
import { detectFileType } from './detect-type.ts';
import { originalKey } from './keys.ts';

const IMAGE_KINDS = new Set(['jpeg', 'png', 'webp']);

/**
 * End: checks the listed parts against the stored ones, assembles them in order into one
 * file (streamed part after part through a hash into a spool file, so a large file is never
 * in memory), sniffs its type like a single upload, stores it and registers file + job +
 * queued task in one transaction with the session's move to `ended`. Any failure leaves
 * nothing registered and the session open, so the client can fix the parts and end again.
 */
export async function endUploadSession(
  deps: SessionDeps & { dataDir: string },
  workspaceId: string,
  fields: { key?: string; parts?: string },
): Promise<JobRow> {
  const listed = parsePartList(fields.parts);
  const now = deps.clock();
  const session = await liveSession(deps.db, workspaceId, fields.key, deps.idleMs, now);
  // Balance (402) and the plan's ceiling; a session, like a url, is not bound by the 100 MB request cap.
  const pre = await uploadPreflight(deps.db, workspaceId, 'url');
  const expiresAt = expiryAt(pre.tier, session.expiry_in_days ?? undefined, now);
  // One request at a time may end a session: appends and aborts are refused from here on.
  if (
    !(await repos(deps.db).uploadSessions.transitionUploadSession(
      session.id,
      'open',
      'ending',
      now - deps.idleMs,
      now,
    ))
  ) {
    await liveSession(deps.db, workspaceId, fields.key, deps.idleMs, deps.clock());
    throw errors.badRequest('This upload session changed meanwhile; try again.');
  }
  let job: JobRow | null = null;
  try {
    // Read after the claim, so no append can slip in between the check and the assembly.
    const parts = checkParts(listed, await repos(deps.db).uploadSessions.listParts(session.id), pre);
    job = await assembleAndRegister(deps, session, parts, expiresAt);
    return job;
  } finally {
    if (job) await removeChunks(deps, session.id).catch(() => {});
    else
      await repos(deps.db).uploadSessions.transitionUploadSession(
        session.id,
        'ending',
        'open',
        0,
        deps.clock(),
      );
  }
}

async function assembleAndRegister(
  deps: SessionDeps & { dataDir: string },
  session: UploadSessionRow,
  parts: UploadPartRow[],
  expiresAt: number | null,
): Promise<JobRow> {
  const tmpDir = path.join(deps.dataDir, 'tmp');
  await mkdir(tmpDir, { recursive: true });
  const tmp = path.join(tmpDir, `session-${randomBase62(16)}`);
  const id = newId('ds');
  const key = originalKey(id);
  let uploaded = false;
  try {
    const whole = await assemble(deps, parts, tmp);
    const detected = await detectFileType(tmp);
    if ('refused' in detected) throw errors.badRequest(detected.refused);
    await deps.blobs.putFile(key, tmp, { contentType: detected.mime });
    uploaded = true;
    return await deps.db.transaction(async (tx) => {
      const now = deps.clock();
      // Fails when the sweep expired the session meanwhile: then nothing is registered.
      if (
        !(await repos(tx).uploadSessions.transitionUploadSession(session.id, 'ending', 'ended', 0, now, {
          fileId: id,
        }))
      ) {
        throw errors.badRequest('This upload session expired while it was being ended; start a new session.');
      }
      await repos(tx).uploadSessions.deleteParts(session.id);
      return registerFile(
        tx,
        {
          id,
          workspaceId: session.workspace_id,
          type: IMAGE_KINDS.has(detected.kind) ? 'image' : 'doc',
          fileName: cleanName(session.file_name, detected.ext),
          fileExt: detected.ext,
          mimeType: detected.mime,
          fileSize: whole.size,
          sha256: whole.sha256,
          sourceUrl: null,
          expiresAt,
        },
        { type: session.job_type, apiVersion: 'v1', status: 'IN_PROGRESS' },
        now,
      );
    });
  } catch (err) {
    if (uploaded) await deps.blobs.delete(key).catch(() => {});
    throw err;
  } finally {
    await rm(tmp, { force: true });
  }
}

/**
 * Copies the parts in order into one file, re-hashing each: a stored chunk whose bytes no
 * longer match its etag or size fails the end rather than producing a corrupt document.
 */
async function assemble(
  deps: SessionDeps,
  parts: UploadPartRow[],
  file: string,
): Promise<{ size: number; sha256: string }> {
  const whole = createHash('sha256');
  let size = 0;
  const out = createWriteStream(file, { mode: 0o600 });
  let failed: Error | null = null;
  out.on('error', (err) => {
    failed = err;
  });
  try {
    // One write stream for all parts, fed by hand: a pipeline per part would stack listeners
    // on it (10,000 parts), and backpressure is just a wait for 'drain'.
    for (const p of parts) {
      const partHash = createHash('sha256');
      let partSize = 0;
      for await (const chunk of (await deps.blobs.getStream(p.blob_key)) as AsyncIterable<Buffer>) {
        partSize += chunk.length;
        partHash.update(chunk);
        whole.update(chunk);
        if (!out.write(chunk)) await once(out, 'drain');
        if (failed) throw failed;
      }
      if (partSize !== p.byte_size || partHash.digest('hex') !== p.etag) {
        throw new Error(`Stored part ${p.part_number} does not match its etag`);
      }
      size += partSize;
    }
    out.end();
    await finished(out);
  } finally {
    if (!out.closed) out.destroy();
  }
  return { size, sha256: whole.digest('hex') };
}
