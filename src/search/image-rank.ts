import sharp from 'sharp';
import type { BlobStore } from '../infra/blob/store.ts';
import type { Database } from '../infra/db/database.ts';
import { repos } from '../infra/repos/index.ts';
import { recognize } from '../ingest/ocr.ts';
import { dHash } from './dhash.ts';
import type { RankedPage } from './fuse.ts';

/**
 * Bits (of 256) two hashes may differ in and still count as the same picture: a page image
 * against its own smaller retrieval image differs in a handful; unrelated pages in far more.
 */
export const MAX_HASH_DISTANCE = 40;
const OCR_MAX_SIDE = 3000;

/** The words of a query picture, read offline by the same OCR as scanned pages. */
export async function imageText(image: Buffer): Promise<string> {
  const { data, info } = await sharp(image, { limitInputPixels: 100_000_000 })
    .rotate()
    .flatten({ background: '#ffffff' })
    .greyscale()
    .resize(OCR_MAX_SIDE, OCR_MAX_SIDE, { fit: 'inside', withoutEnlargement: true })
    .png({ compressionLevel: 1 })
    .toBuffer({ resolveWithObject: true });
  const { text } = await recognize(data, info.width, info.height, 150);
  return text;
}

/** Pages whose retrieval image looks like the query picture, nearest first. */
export async function rankByLook(
  deps: { db: Database; blobs: BlobStore },
  fileIds: readonly string[],
  image: Buffer,
  limit: number,
  now: number,
): Promise<RankedPage[]> {
  if (fileIds.length === 0) return [];
  await hashMissingPages(deps, fileIds, now);
  const bits = await dHash(image);
  const rows = await repos(deps.db).pageHashes.nearestHashes(fileIds, bits, MAX_HASH_DISTANCE, limit);
  return rows.map((r) => ({ fileId: r.file_id, page: r.page, score: 1 - r.distance / 256 }));
}

/**
 * Hashes every page of these files that has none: pages ingested before hashing existed,
 * or whose hashing after ingest failed. Each page is hashed once; later searches reuse it.
 */
export async function hashMissingPages(
  deps: { db: Database; blobs: BlobStore },
  fileIds: readonly string[],
  now: number,
): Promise<number> {
  const todo = await repos(deps.db).pageHashes.pagesWithoutHash(fileIds);
  const BATCH = 16;
  for (let i = 0; i < todo.length; i += BATCH) {
    const batch = todo.slice(i, i + BATCH);
    const hashed = await Promise.all(
      batch.map(async (p) => {
        try {
          return {
            fileId: p.file_id,
            page: p.page,
            bits: await dHash(await deps.blobs.getBuffer(p.blob_key)),
          };
        } catch {
          return null; // bytes already purged or unreadable: the page just cannot match by look
        }
      }),
    );
    await repos(deps.db).pageHashes.insertPageHashes(
      hashed.filter((h) => h !== null),
      now,
    );
  }
  return todo.length;
}
