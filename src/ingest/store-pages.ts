import { changeBalance } from '../domain/credits.ts';
import type { BlobStore } from '../infra/blob/store.ts';
import type { Clock } from '../infra/clock.ts';
import type { Database } from '../infra/db/database.ts';
import { newId } from '../infra/ids.ts';
import { countCreditsCharged, countIngestPages } from '../infra/metrics.ts';
import { type JobRow, repos } from '../infra/repos/index.ts';
import { pageKey } from './keys.ts';
import type { PageOutput } from './page-worker.ts';
import type { StageTimes } from './profile.ts';

export type StoredPage = Omit<PageOutput, 'ocrImage'> & { page: number; ocr: boolean };

const round4 = (v: number) => Math.round(v * 10_000) / 10_000;

const views = (r: StoredPage) => [
  { row: 'pdf' as const, bytes: r.pdf, type: 'application/pdf' },
  { row: 'jpg' as const, bytes: r.jpg, type: 'image/jpeg' },
  { row: 'embedding_image' as const, bytes: r.embedding, type: 'image/jpeg' },
];

/**
 * Bytes first (all pages of the batch at once), then one transaction that, page by page in
 * order, stores the text and items and charges 1 credit with its ledger row. A page an
 * earlier attempt already stored is neither stored nor charged again. Stops at the first
 * page the balance cannot pay for; returns how many pages of the batch are now stored.
 */
export async function storePages(
  deps: { db: Database; blobs: BlobStore; clock: Clock },
  job: JobRow,
  fileId: string,
  pages: StoredPage[],
  prof?: StageTimes,
): Promise<number> {
  const blobStart = prof ? performance.now() : 0;
  await Promise.all(
    pages.flatMap((r) =>
      views(r).map((v) => deps.blobs.put(pageKey(fileId, r.page, v.row), v.bytes, { contentType: v.type })),
    ),
  );
  const dbStart = prof ? performance.now() : 0;
  prof?.add('blob', dbStart - blobStart);
  let charged = 0;
  const stored = await deps.db.transaction(async (tx) => {
    let n = 0;
    charged = 0;
    for (const r of pages) {
      const now = deps.clock();
      const w = await repos(tx).workspaces.findWorkspace(job.workspace_id, { forUpdate: true });
      if (!w || w.balance < 1) break;
      const inserted = await repos(tx).items.insertPage({
        file_id: fileId,
        page: r.page,
        width: r.width,
        height: r.height,
        text: r.text,
        words: r.words.map((x) => [x.text, ...x.box.map(round4)]),
        images: r.images.map((x) => ({ box: x.box.map(round4) })),
        ocr: r.ocr,
        created_at: now,
      });
      n++;
      if (!inserted) continue;
      await changeBalance(
        tx,
        { workspaceId: job.workspace_id, amount: -1, reason: 'ingest_page', refId: job.id, isSpend: true },
        now,
      );
      await repos(tx).items.insertItems(
        views(r).map((v) => ({
          id: newId('dsx'),
          file_id: fileId,
          row: v.row,
          col: r.page,
          blob_key: pageKey(fileId, r.page, v.row),
          mime_type: v.type,
          byte_size: v.bytes.byteLength,
          created_at: now,
        })),
      );
      await repos(tx).items.countPageDone(job.id, fileId, now);
      charged++;
    }
    return n;
  });
  prof?.add('db', prof ? performance.now() - dbStart : 0);
  countIngestPages('success', charged);
  countCreditsCharged('ingest_page', charged);
  const unpaid = pages.slice(stored);
  await Promise.all(
    unpaid.flatMap((r) =>
      views(r).map((v) => deps.blobs.delete(pageKey(fileId, r.page, v.row)).catch(() => {})),
    ),
  );
  return stored;
}
