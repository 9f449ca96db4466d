import { statfs } from 'node:fs/promises';
import path from 'node:path';
import { TIER_LIMITS } from '../domain/tiers.ts';
import type { BlobStore } from '../infra/blob/store.ts';
import type { Clock } from '../infra/clock.ts';
import type { OfficeLimits } from '../infra/config.ts';
import type { Database } from '../infra/db/database.ts';
import { type FileRow, repos, type Tier } from '../infra/repos/index.ts';
import { detectFileType } from './detect-type.ts';
import { downloadToFile, UrlRefusedError } from './fetch-url.ts';
import { originalKey, sourcePdfKey } from './keys.ts';
import { convertToPdf, OfficeConversionError } from './office.ts';
import type { PagePool } from './page-pool.ts';
import { repairPdf } from './pdf-repair.ts';
import { checkZipBudget } from './zip-budget.ts';

/** A failure the user caused or can fix; its message becomes the job's statusText. */
export class UserFacingError extends Error {}

export type Source = { kind: 'image'; path: string } | { kind: 'pdf'; path: string; pageCount: number };

interface Deps {
  db: Database;
  blobs: BlobStore;
  pool: PagePool;
  officeTimeoutMs: number;
  /** The OFFICE_* settings: zip budget and converter rlimits. */
  officeLimits: OfficeLimits;
  clock: Clock;
}

/** The office formats that are zips of XML parts (OOXML); `.doc` is an OLE file and has no zip to read. */
const OOXML_MIME = new Set([
  'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
  'application/vnd.openxmlformats-officedocument.presentationml.presentation',
  'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
]);

const IMAGE_MIME = new Set(['image/jpeg', 'image/png', 'image/webp']);
const PDF_MIME = 'application/pdf';

/**
 * Brings the original to local disk (downloading a `url` upload first), turns office
 * files into PDF (kept in the blob store so a resumed job does not convert twice) and
 * counts the pages.
 */
export async function preparePdf(
  deps: Deps,
  file: FileRow,
  tier: Tier,
  workDir: string,
  signal: AbortSignal,
): Promise<Source> {
  const original = path.join(workDir, 'original');
  let mime = file.mime_type;
  if (file.source_url && !(await deps.blobs.stat(originalKey(file.id)))) {
    mime = await download(deps, file, tier, original, signal);
  } else {
    await deps.blobs.getToFile(originalKey(file.id), original);
  }
  if (IMAGE_MIME.has(mime)) return { kind: 'image', path: original };

  let pdfPath = original;
  if (mime !== PDF_MIME) {
    pdfPath = path.join(workDir, 'source.pdf');
    if (await deps.blobs.stat(sourcePdfKey(file.id))) {
      await deps.blobs.getToFile(sourcePdfKey(file.id), pdfPath);
    } else {
      const limits = deps.officeLimits;
      if (OOXML_MIME.has(mime)) {
        // Before LibreOffice is started: a zip bomb costs milliseconds here, not a slot for
        // the whole conversion timeout.
        const refused = await checkZipBudget(original, limits);
        if (refused) {
          throw new UserFacingError(
            `The document was refused before conversion: ${refused}. Nothing was charged.`,
          );
        }
      }
      try {
        pdfPath = await convertToPdf(original, {
          outDir: path.join(workDir, 'convert'),
          profileDir: path.join(workDir, 'lo-profile'),
          timeoutMs: deps.officeTimeoutMs,
          cpuSeconds: limits.cpuSeconds,
          memoryBytes: limits.memoryBytes,
          signal,
        });
      } catch (err) {
        if (!(err instanceof OfficeConversionError)) throw err;
        // LibreOffice says nothing useful when it cannot write its PDF: on a full disk the
        // failure is the machine's, and the job retries instead of blaming the document.
        if (await nearlyFull(workDir)) throw outOfSpace();
        throw new UserFacingError(`Could not convert the document to PDF: ${err.message}`);
      }
      await deps.blobs.putFile(sourcePdfKey(file.id), pdfPath, { contentType: PDF_MIME });
    }
  }
  let info = await deps.pool.inspect(pdfPath, signal);
  if ('error' in info) {
    const repaired = path.join(workDir, 'repaired.pdf');
    if (await repairPdf(pdfPath, repaired, 60_000, signal)) {
      const second = await deps.pool.inspect(repaired, signal);
      if (!('error' in second)) {
        pdfPath = repaired;
        info = second;
      }
    }
  }
  if ('error' in info) {
    throw new UserFacingError(
      info.error === 'password' ? 'password protected' : `The PDF cannot be read: ${info.message}`,
    );
  }
  return { kind: 'pdf', path: pdfPath, pageCount: info.pageCount };
}

/** Less free space than any converted PDF needs: the disk, not the document, failed the conversion. */
const NEARLY_FULL_BYTES = 16 * 1024 * 1024;

async function nearlyFull(dir: string): Promise<boolean> {
  try {
    const s = await statfs(dir);
    return s.bavail * s.bsize < NEARLY_FULL_BYTES;
  } catch {
    return false;
  }
}

function outOfSpace(): Error {
  return Object.assign(new Error('ENOSPC: no space left on device for the converted PDF'), {
    code: 'ENOSPC',
  });
}

async function download(
  deps: Deps,
  file: FileRow,
  tier: Tier,
  dest: string,
  signal: AbortSignal,
): Promise<string> {
  let fetched: Awaited<ReturnType<typeof downloadToFile>>;
  try {
    fetched = await downloadToFile(file.source_url!, dest, {
      maxBytes: TIER_LIMITS[tier].uploadBytes,
      signal,
    });
  } catch (err) {
    if (err instanceof UrlRefusedError) throw new UserFacingError(err.message);
    throw err;
  }
  const detected = await detectFileType(dest);
  if ('refused' in detected) throw new UserFacingError(detected.refused);
  await deps.blobs.putFile(originalKey(file.id), dest, { contentType: detected.mime });
  const name = fetched.fileName ?? file.file_name;
  await repos(deps.db).files.updateFile(
    file.id,
    {
      type: IMAGE_MIME.has(detected.mime) ? 'image' : 'doc',
      file_name: name,
      file_ext: detected.ext,
      mime_type: detected.mime,
      file_size: fetched.size,
      sha256: fetched.sha256,
      // The address may carry credentials; it is not needed once the bytes are ours.
      source_url: null,
    },
    deps.clock(),
  );
  return detected.mime;
}
