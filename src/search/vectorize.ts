import sharp from 'sharp';
import type { BlobStore } from '../infra/blob/store.ts';
import type { Clock } from '../infra/clock.ts';
import type { Database } from '../infra/db/database.ts';
import { type PageVector, repos } from '../infra/repos/index.ts';
import type { EmbeddingsClient } from './embeddings.ts';

/** Pages sent to the provider per request and stored per statement. */
const BATCH = 16;
/** Embedding models read a few thousand tokens at most; the start of a page carries its subject. */
const MAX_TEXT_CHARS = 8000;

/**
 * The vectorize step (D3 "what vectorize adds"): embeds each stored page's text, and its
 * retrieval image when the provider takes images, and stores the vectors. Pages that
 * already have a vector from this model are skipped, so a repeated or resumed vectorize
 * adds only what is missing and never re-reads or re-charges pages. Returns vectors added.
 */
export async function vectorizeFile(
  deps: { db: Database; blobs: BlobStore; embeddings: EmbeddingsClient; clock: Clock },
  fileId: string,
  signal?: AbortSignal,
): Promise<number> {
  const { db, embeddings } = deps;
  let added = 0;
  const texts = await repos(db).items.pageTexts(
    fileId,
    await repos(db).pageVectors.pagesWithoutVector(fileId, 'text', embeddings.model),
  );
  for (let i = 0; i < texts.length; i += BATCH) {
    const batch = texts.slice(i, i + BATCH);
    const vectors = await embeddings.embed(
      batch.map((p) => p.text.slice(0, MAX_TEXT_CHARS)),
      signal,
    );
    added += await store(
      db,
      batch.map((p, j) => row(fileId, p.page, 'text', embeddings.model, vectors[j])),
      deps.clock(),
    );
  }
  if (!embeddings.images) return added;
  const images = await repos(db).items.embeddingImages(
    fileId,
    await repos(db).pageVectors.pagesWithoutVector(fileId, 'image', embeddings.model),
  );
  for (let i = 0; i < images.length; i += BATCH) {
    const batch = images.slice(i, i + BATCH);
    const inputs = await Promise.all(
      batch.map(async (p) => ({ image: await jpegDataUrl(await deps.blobs.getBuffer(p.blob_key)) })),
    );
    const vectors = await embeddings.embed(inputs, signal);
    added += await store(
      db,
      batch.map((p, j) => row(fileId, p.page, 'image', embeddings.model, vectors[j])),
      deps.clock(),
    );
  }
  return added;
}

const row = (
  fileId: string,
  page: number,
  kind: PageVector['kind'],
  model: string,
  vector: Float32Array,
) => ({
  file_id: fileId,
  page,
  kind,
  model,
  vector,
});

async function store(db: Database, rows: PageVector[], now: number): Promise<number> {
  await repos(db).pageVectors.insertPageVectors(rows, now);
  return rows.length;
}

/** Retrieval images are JPEGs already; re-encoding only guards against a stray format. */
async function jpegDataUrl(bytes: Buffer): Promise<string> {
  const jpeg = await sharp(bytes).jpeg({ quality: 80 }).toBuffer();
  return `data:image/jpeg;base64,${jpeg.toString('base64')}`;
}
