import path from 'node:path';
import sharp from 'sharp';
import type { BlobStore } from '../infra/blob/store.ts';
import type { Database } from '../infra/db/database.ts';
import { observeSearch } from '../infra/metrics.ts';
import type { FileItemRow } from '../infra/repos/index.ts';
import type { EmbeddingsClient } from './embeddings.ts';
import { rankFullText } from './fulltext.ts';
import { fuse, type RankedPage } from './fuse.ts';
import { loadQueryImage } from './image-input.ts';
import { imageText, rankByLook } from './image-rank.ts';
import { charge, precheck } from './metering.ts';
import type { SearchQuery } from './query.ts';
import { pageItems, searchableFiles } from './scope.ts';
import { rankByVector } from './vector-rank.ts';

export interface SearchDeps {
  db: Database;
  blobs: BlobStore;
  embeddings: EmbeddingsClient | null;
  price: number;
  dataDir: string;
  log?: { warn(obj: unknown, msg: string): void };
}

export interface SearchCaller {
  workspaceId: string;
  keyId: string | null;
  idempotencyKey: string | null;
}

/** Each ranking offers this many pages to the fusion, so a page second in one list and absent from another still competes. */
const CANDIDATES = 100;

/**
 * POST /v1/search: checks the caller can pay, ranks pages (full text; vectors when an
 * embeddings provider is set; an image by its words and its look), fuses the rankings,
 * charges once, and returns each hit as the page's `jpg` item with its score.
 */
export async function searchPages(
  deps: SearchDeps,
  caller: SearchCaller,
  query: SearchQuery,
  now: number,
): Promise<{ item: FileItemRow; score: number }[]> {
  // Latency into folio_search_duration_seconds (performance.now(): a duration, not a clock).
  const started = performance.now();
  const seconds = () => (performance.now() - started) / 1000;
  try {
    const hits = await searchUntimed(deps, caller, query, now);
    observeSearch('success', seconds());
    return hits;
  } catch (err) {
    observeSearch('error', seconds());
    throw err;
  }
}

async function searchUntimed(
  deps: SearchDeps,
  caller: SearchCaller,
  query: SearchQuery,
  now: number,
): Promise<{ item: FileItemRow; score: number }[]> {
  const meter = {
    workspaceId: caller.workspaceId,
    keyId: caller.keyId,
    idempotencyKey: caller.idempotencyKey,
    requestHash: query.hash,
    price: deps.price,
  };
  // Full text alone reads the readable files in its own query; `datasetIds` are checked
  // (404) first, and the other rankings take the list.
  const listed = query.datasetIds !== null || query.imageUrl !== null || deps.embeddings !== null;
  const fileIds = listed ? await searchableFiles(deps.db, caller.workspaceId, query.datasetIds, now) : null;
  const { alreadyPaid } = await precheck(deps.db, meter, now);
  const rankings = await rank(deps, caller.workspaceId, fileIds, query, now);
  const hits = fuse(rankings, query.limit);
  if (!alreadyPaid) await charge(deps.db, meter, hits.length, now);
  const items = await pageItems(deps.db, hits);
  return hits.flatMap((h) => {
    const item = items.get(`${h.fileId}/${h.page}`);
    return item ? [{ item, score: round(h.score) }] : [];
  });
}

const round = (v: number) => Math.round(v * 1e6) / 1e6;

async function rank(
  deps: SearchDeps,
  workspaceId: string,
  listed: string[] | null,
  query: SearchQuery,
  now: number,
): Promise<RankedPage[][]> {
  const fileIds = listed ?? [];
  const rankings: RankedPage[][] = [];
  let texts = query.text ? [query.text] : [];
  if (query.imageUrl) {
    const image = await loadQueryImage(query.imageUrl, path.join(deps.dataDir, 'work', 'search'));
    if (deps.embeddings?.images) {
      const vector = await embedOrNull(deps, { image: await jpegDataUrl(image) });
      if (vector)
        rankings.push(
          await rankByVector(deps.db, fileIds, 'image', deps.embeddings.model, vector, CANDIDATES),
        );
    } else {
      // D6: without an image-capable provider, the picture's words and its look.
      const words = await imageText(image);
      if (words.trim()) texts = [...texts, words];
      rankings.push(await rankByLook(deps, fileIds, image, CANDIDATES, now));
    }
  }
  for (const text of texts) {
    rankings.push(await rankFullText(deps.db, { workspaceId, fileIds: listed, now }, text, CANDIDATES));
  }
  if (deps.embeddings && texts.length > 0) {
    const vector = await embedOrNull(deps, texts.join('\n'));
    if (vector)
      rankings.push(await rankByVector(deps.db, fileIds, 'text', deps.embeddings.model, vector, CANDIDATES));
  }
  return rankings;
}

/**
 * A provider that is down degrades search to its offline rankings rather than failing it:
 * full text still answers, and the failure is logged.
 */
async function embedOrNull(
  deps: SearchDeps,
  input: string | { image: string },
): Promise<Float32Array | null> {
  try {
    const [v] = await deps.embeddings!.embed([input], AbortSignal.timeout(30_000));
    return v;
  } catch (err) {
    deps.log?.warn({ err: (err as Error).message }, 'query embedding failed; searching without vectors');
    return null;
  }
}

/** The picture as the provider receives page images: a JPEG data URL of at most 512 px a side. */
async function jpegDataUrl(image: Buffer): Promise<string> {
  const jpeg = await sharp(image)
    .rotate()
    .resize(512, 512, { fit: 'inside' })
    .flatten({ background: '#ffffff' })
    .jpeg({ quality: 80 })
    .toBuffer();
  return `data:image/jpeg;base64,${jpeg.toString('base64')}`;
}
