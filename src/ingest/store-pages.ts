import { spendMonth } from '../domain/clock.ts';
import { currentMonthSpend } from '../domain/credits.ts';
import type { BlobStore } from '../infra/blob/store.ts';
import type { Clock } from '../infra/clock.ts';
import type { Database } from '../infra/db/database.ts';
import { newId } from '../infra/ids.ts';
import { countCreditsCharged, countIngestPages } from '../infra/metrics.ts';
import { type JobRow, repos } from '../infra/repos/index.ts';
import { pageKey } from './keys.ts';
import type { PageOutput, PageView } from './page-worker.ts';
import type { StageTimes } from './profile.ts';

export type StoredPage = Omit<PageOutput, 'ocrImage'> & { page: number; ocr: boolean };

const TYPES = { pdf: 'application/pdf', jpg: 'image/jpeg', embedding_image: 'image/jpeg' } as const;

/** A view's bytes (still to be stored) or its size (the page thread stored it). */
const views = (r: StoredPage) =>
  (Object.entries(r.views) as [PageView, Uint8Array | number][]).map(([row, v]) => ({
    row,
    bytes: typeof v === 'number' ? null : v,
    size: typeof v === 'number' ? v : v.byteLength,
    type: TYPES[row],
  }));

/**
 * Bytes first (all pages of the batch at once), then one transaction that stores the pages'
 * text and items and charges 1 credit per page with its ledger row, a few statements for the
 * whole batch under one lock of the workspace. A page an earlier attempt already stored is
 * neither stored nor charged again. Pages are taken in order up to the first one the balance
 * cannot pay for; returns how many pages of the batch are now stored.
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
      views(r).flatMap((v) =>
        v.bytes ? [deps.blobs.put(pageKey(fileId, r.page, v.row), v.bytes, { contentType: v.type })] : [],
      ),
    ),
  );
  const dbStart = prof ? performance.now() : 0;
  prof?.add('blob', dbStart - blobStart);
  // Built before the transaction: PGlite runs on this thread, and the lock is held meanwhile.
  const rows = pages.map((r) => ({
    page: r.page,
    width: r.width,
    height: r.height,
    text: r.text,
    words: r.words,
    images: r.images,
    ocr: r.ocr,
    created_at: 0,
  }));
  let charged = 0;
  const stored = await deps.db.transaction(async (tx) => {
    charged = 0;
    const r = repos(tx);
    const w = await r.workspaces.findWorkspace(job.workspace_id, { forUpdate: true });
    if (!w) return 0;
    // Every page costs a credit unless already stored; with credits for the whole batch
    // there is nothing to find out first.
    const before =
      w.balance >= pages.length
        ? new Set<number>()
        : await r.items.storedPagesOf(
            fileId,
            pages.map((p) => p.page),
          );
    let n = 0;
    for (let left = w.balance; n < pages.length && left >= 1; n++) {
      if (!before.has(pages[n]!.page)) left--;
    }
    if (n === 0) return 0;
    const now = deps.clock();
    for (const row of rows) row.created_at = now;
    const inserted = await r.items.insertPages(fileId, rows.slice(0, n));
    const fresh = pages.slice(0, n).filter((p) => inserted.has(p.page));
    if (fresh.length === 0) return n;
    let balance = w.balance;
    await r.ledger.insertLedgerRows(
      fresh.map(() => ({
        id: newId('ledg'),
        workspace_id: w.id,
        amount: -1,
        balance_after: --balance,
        reason: 'ingest_page',
        ref_id: job.id,
        actor_id: null,
        created_at: now,
      })),
    );
    await r.workspaces.updateWorkspace(
      w.id,
      { balance, month_spend: currentMonthSpend(w, now) + fresh.length, spend_month: spendMonth(now) },
      now,
    );
    await r.items.insertItems(
      fresh.flatMap((p) =>
        views(p).map((v) => ({
          id: newId('dsx'),
          file_id: fileId,
          row: v.row,
          col: p.page,
          blob_key: pageKey(fileId, p.page, v.row),
          mime_type: v.type,
          byte_size: v.size,
          created_at: now,
        })),
      ),
    );
    await r.items.countPagesDone(job.id, fileId, fresh.length, now);
    // Look hashes made by the page threads; pages without one are hashed when the job ends.
    await r.pageHashes.insertPageHashes(
      fresh.flatMap((p) => (p.dhash ? [{ fileId, page: p.page, bits: p.dhash }] : [])),
      now,
    );
    charged = fresh.length;
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
