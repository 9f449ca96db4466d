import { mkdtempSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PagePool } from '../src/ingest/page-pool.ts';
import { makeLargeTextPdf } from './fixtures/pdf.ts';

// The page pool behind ingest (interface.md 2.10 and 3.3: every page of an upload becomes
// items, or its job fails). A page that hangs the renderer ends its thread; pages that
// only shared that thread still come out.
describe('page pool: an aborted page ends its own task, not its neighbours', () => {
  let pool: PagePool;
  let pdf: string;

  beforeAll(async () => {
    pdf = path.join(mkdtempSync(path.join(os.tmpdir(), 'folio-pool-')), 'six.pdf');
    writeFileSync(pdf, await makeLargeTextPdf(6));
    pool = new PagePool(1);
  });
  afterAll(() => pool.close());

  const pageText = async (p: Promise<{ text: string }>) => (await p).text.split('\n')[0];

  it('a page aborted before any thread took it is dropped; the rest are read', async () => {
    const stop = new AbortController();
    const first = pool.page(pdf, 0, 150, undefined, stop.signal);
    stop.abort(new Error('job cancelled'));
    const rest = [1, 2, 3].map((i) => pageText(pool.page(pdf, i, 150)));
    await expect(first).rejects.toThrow('job cancelled');
    expect(await Promise.all(rest)).toEqual(['Page 2 of 6', 'Page 3 of 6', 'Page 4 of 6']);
  });

  it('a page aborted while its thread reads it ends that thread; the pages queued on it run again', async () => {
    await pool.page(pdf, 0, 150); // the thread is up and warm
    const stop = new AbortController();
    const first = pool.page(pdf, 0, 150, undefined, stop.signal);
    const rest = [1, 2, 3, 4, 5].map((i) => pageText(pool.page(pdf, i, 150)));
    // A warm thread takes the page at once and draws it for several milliseconds.
    await new Promise((r) => setTimeout(r, 3));
    stop.abort(new Error('took longer than 60 s'));
    await expect(first).rejects.toThrow('took longer than 60 s');
    expect(await Promise.all(rest)).toEqual([
      'Page 2 of 6',
      'Page 3 of 6',
      'Page 4 of 6',
      'Page 5 of 6',
      'Page 6 of 6',
    ]);
    // And the pool goes on with a new thread.
    expect(await pageText(pool.page(pdf, 5, 150))).toBe('Page 6 of 6');
  });
});
