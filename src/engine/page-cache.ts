import type { Queryable } from '../infra/db/database.ts';
import { repos } from '../infra/repos/index.ts';
import type { EnginePage } from './types.ts';

/**
 * A file's pages kept in memory across cells, least recently used dropped first: a row's
 * columns read the same documents one after another, and a file's pages never change once
 * ingested, so a cached copy is never stale.
 */
export class PageCache {
  private readonly pages = new Map<string, EnginePage[]>();
  private held = 0;
  private readonly db: Queryable;
  /** Pages held at most, beyond those a single call needs. */
  private readonly limit: number;

  constructor(db: Queryable, limit = 4_000) {
    this.db = db;
    this.limit = limit;
  }

  /**
   * The pages of every file named, loading those not held in one query. The map returned is
   * the caller's: another batch loading meanwhile may evict a file from the cache, never from it.
   */
  async load(fileIds: Iterable<string>): Promise<Map<string, EnginePage[]>> {
    const want = new Set(fileIds);
    const out = new Map<string, EnginePage[]>();
    const missing: string[] = [];
    for (const id of want) {
      const pages = this.pages.get(id);
      if (!pages) {
        missing.push(id);
        continue;
      }
      // Refresh recency: a Map iterates in insertion order, oldest first.
      this.pages.delete(id);
      this.pages.set(id, pages);
      out.set(id, pages);
    }
    if (missing.length > 0) {
      for (const [id, pages] of await repos(this.db).enginePages.loadEnginePages(missing)) {
        if (!this.pages.has(id)) this.held += pages.length;
        this.pages.set(id, pages);
        out.set(id, pages);
      }
      for (const [id, pages] of this.pages) {
        if (this.held <= this.limit || want.has(id)) break;
        this.pages.delete(id);
        this.held -= pages.length;
      }
    }
    return out;
  }
}
