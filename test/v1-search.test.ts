import http from 'node:http';
import type { AddressInfo } from 'node:net';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { INGEST_TASK } from '../src/domain/jobs.ts';
import { newId } from '../src/infra/ids.ts';
import { enqueue } from '../src/infra/queue.ts';
import { findJob, insertJob } from '../src/infra/repos/jobs.ts';
import { listLedger } from '../src/infra/repos/ledger.ts';
import { CANDIDATE_BUDGET, candidateQueries } from '../src/search/fulltext.ts';
import type { Harness, TestWorkspace } from './helpers/harness.ts';
import { startHarness } from './helpers/harness.ts';
import { expectLedgerInvariant, ingestText, type Json, until } from './helpers/runs.ts';
import { v1 } from './helpers/v1.ts';

/** Three pages, each about one thing, so the right page for a question is known. */
const SUPPLY = [
  [
    'MASTER SUPPLY AGREEMENT',
    'This agreement is made between Northwind Logistics, Inc. and Contoso Holdings LLC.',
    'Northwind shall deliver the goods described in Annex A to the customer warehouse.',
  ],
  [
    'GOVERNING LAW',
    'This agreement shall be governed by and construed under the laws of the State of Delaware.',
    'Any dispute shall be settled by the courts of Wilmington.',
  ],
  [
    'PAYMENT TERMS',
    'The customer shall pay every invoice within thirty days of receipt.',
    'Late payments carry interest of two percent per month.',
  ],
];
const LEASE = [
  ['OFFICE LEASE', 'The landlord Fabrikam Properties leases the office premises to Tailspin Aerospace.'],
  ['RENT', 'The monthly rent is 4,200 dollars, payable on the first business day of each month.'],
];

async function search(h: Harness, key: string, body: unknown, headers: Record<string, string> = {}) {
  return h.request('POST', '/v1/search', { key, body, headers });
}

describe('POST /v1/search (interface.md 4.9, decisions.md D3, D6)', () => {
  let h: Harness;
  let ws: TestWorkspace;
  let supply: string;
  let lease: string;

  beforeAll(async () => {
    h = await startHarness({}, { worker: true });
    ws = await h.workspace({ credits: 1000 });
    supply = await ingestText(h, ws, SUPPLY, 'supply-agreement.pdf');
    lease = await ingestText(h, ws, LEASE, 'office-lease.pdf');
  }, 120_000);
  afterAll(() => h?.close());

  const hits = (r: { json(): Json }) => r.json().data as Json[];

  it('4.9: a question finds the page that answers it first, hits are jpg page items with a score, highest first', async () => {
    const r = await search(h, ws.readKey, { query: 'Which state law governs this agreement?' });
    expect(r.statusCode).toBe(200);
    const data = hits(r);
    expect(data[0]).toMatchObject({ datasetId: supply, col: 2, row: 'jpg' });
    expect(data[0].id).toMatch(/^dsx_/);
    expect(data[0].share.url).toContain(`/v2/share/${data[0].id}`);
    for (let i = 1; i < data.length; i++) expect(data[i].score).toBeLessThanOrEqual(data[i - 1].score);
    expect(r.json().total).toBe(data.length);
    // No generated answer anywhere: only page items.
    for (const hit of data)
      expect(Object.keys(hit).sort()).toEqual([
        'col',
        'createdAt',
        'datasetId',
        'id',
        'row',
        'score',
        'share',
      ]);
  });

  it('4.9: a question need not have all its words on the page (words are alternatives), and a phrase ranks its page first', async () => {
    const r = await search(h, ws.readKey, {
      query: { text: 'When is the monthly rent of the penthouse due?' },
    });
    expect(hits(r)[0]).toMatchObject({ datasetId: lease, col: 2 });
    const phrase = await search(h, ws.readKey, { query: 'late payments interest' });
    expect(hits(phrase)[0]).toMatchObject({ datasetId: supply, col: 3 });
  });

  it('4.9: datasetIds limits the search to those datasets; one that is not readable answers 404', async () => {
    const r = await search(h, ws.readKey, { query: 'agreement payment rent office', datasetIds: [lease] });
    expect(hits(r).length).toBeGreaterThan(0);
    expect(hits(r).every((x) => x.datasetId === lease)).toBe(true);
    const other = await h.workspace();
    const foreign = await ingestText(h, other, [['The foreign agreement about rent.']]);
    const bad = await search(h, ws.readKey, { query: 'rent', datasetIds: [lease, foreign] });
    expect(bad.statusCode).toBe(404);
    expect(bad.json()).toMatchObject({ success: false });
    // And the default scope is the key's own workspace only.
    const mine = await search(h, ws.readKey, { query: 'foreign agreement about rent' });
    expect(hits(mine).some((x) => x.datasetId === foreign)).toBe(false);
  }, 60_000);

  it('4.9: word weights come from counts kept at ingest; files read before counting existed are counted by the first search', async () => {
    const counted = await h.db.query('SELECT pages FROM search_indexed_files WHERE file_id = $1', [supply]);
    expect(counted).toEqual([{ pages: 3 }]);
    await h.db.query('DELETE FROM search_indexed_files WHERE workspace_id = $1', [ws.id]);
    await h.db.query('DELETE FROM search_lexemes WHERE workspace_id = $1', [ws.id]);
    const r = await search(h, ws.readKey, { query: 'Which state law governs this agreement?' });
    expect(hits(r)[0]).toMatchObject({ datasetId: supply, col: 2 });
    const df = await h.db.query('SELECT df FROM search_lexemes WHERE workspace_id = $1 AND lexeme = $2', [
      ws.id,
      'agreement',
    ]);
    expect(df).toEqual([{ df: 2 }]);
  });

  it('4.9, 8: limit keeps the best hits: default 10, clamped to 1-100', async () => {
    const query = 'agreement customer goods invoice payment rent office law state landlord';
    const all = hits(await search(h, ws.readKey, { query, limit: 100 }));
    expect(all.length).toBe(5);
    const two = hits(await search(h, ws.readKey, { query, limit: 2 }));
    expect(two.map((x) => x.id)).toEqual(all.slice(0, 2).map((x) => x.id));
    expect(hits(await search(h, ws.readKey, { query, limit: 0 }))).toHaveLength(1);
    expect(hits(await search(h, ws.readKey, { query, limit: 1000 }))).toHaveLength(5);
    const bad = await search(h, ws.readKey, { query: '   ' });
    expect(bad.statusCode).toBe(400);
    expect((await search(h, ws.readKey, { limit: 3 })).statusCode).toBe(400);
  });

  it('D3, 7: each search costs 1 credit with a ledger row written with the search record', async () => {
    const before = (await h.admin('GET', `/admin/workspaces/${ws.id}`)).json().data;
    const r = await search(h, ws.readKey, { query: 'governing law' });
    expect(r.statusCode).toBe(200);
    const after = (await h.admin('GET', `/admin/workspaces/${ws.id}`)).json().data;
    expect(after.balance).toBe(before.balance - 1);
    expect(after.monthSpend).toBe(before.monthSpend + 1);
    const ledger = await listLedger(h.db, ws.id);
    const last = ledger.filter((l) => l.reason === 'search').at(-1)!;
    expect(last).toMatchObject({ amount: -1, balance_after: after.balance, actor_id: ws.readKeyId });
    const rec = await h.db.query('SELECT * FROM search_requests WHERE id = $1', [last.ref_id]);
    expect(rec).toHaveLength(1);
    await expectLedgerInvariant(h.db, ws.id);
  });

  it('7, D3: at a zero balance search answers 402 in plain text and charges nothing', async () => {
    const poor = await h.workspace({ credits: 0 });
    const r = await search(h, poor.readKey, { query: 'governing law' });
    expect(r.statusCode).toBe(402);
    expect(r.headers['content-type']).toMatch(/^text\/plain/);
    expect(r.body).toMatch(/credits/i);
    expect(await listLedger(h.db, poor.id)).toEqual([]);
  });

  it('8, D4: searches count against the monthly spend cap (402 plain text once reached)', async () => {
    const capped = await h.workspace({ credits: 50, spendCap: 1 });
    expect((await search(h, capped.readKey, { query: 'rent' })).statusCode).toBe(200);
    const r = await search(h, capped.readKey, { query: 'rent' });
    expect(r.statusCode).toBe(402);
    expect(r.headers['content-type']).toMatch(/^text\/plain/);
    expect(r.body).toMatch(/cap/i);
  });

  it('7: metering that fails answers 503 and charges nothing; the retry with the same idempotency-key is charged once', async () => {
    const w = await h.workspace({ credits: 10 });
    // A real failure of the metering write: the database refuses search ledger rows.
    await h.db.query(`CREATE FUNCTION refuse_search_ledger() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN IF NEW.reason = 'search' THEN RAISE EXCEPTION 'ledger unavailable'; END IF; RETURN NEW; END $$`);
    await h.db.query(`CREATE TRIGGER refuse_search_ledger BEFORE INSERT ON credit_ledger
      FOR EACH ROW EXECUTE FUNCTION refuse_search_ledger()`);
    const key = { 'idempotency-key': 'retry-1' };
    try {
      const failed = await search(h, w.readKey, { query: 'governing law' }, key);
      expect(failed.statusCode).toBe(503);
      expect(failed.json()).toMatchObject({ success: false });
    } finally {
      await h.db.query('DROP TRIGGER refuse_search_ledger ON credit_ledger');
      await h.db.query('DROP FUNCTION refuse_search_ledger()');
    }
    const balance = async () => (await h.admin('GET', `/admin/workspaces/${w.id}`)).json().data.balance;
    expect(await balance()).toBe(10);
    expect(await h.db.query('SELECT 1 FROM search_requests WHERE workspace_id = $1', [w.id])).toEqual([]);
    const retry = await search(h, w.readKey, { query: 'governing law' }, key);
    expect(retry.statusCode).toBe(200);
    expect(await balance()).toBe(9);
    const again = await search(h, w.readKey, { query: 'governing law' }, key);
    expect(again.statusCode).toBe(200);
    expect(hits(again)).toEqual(hits(retry).map((x) => ({ ...x, share: expect.any(Object) })));
    expect(await balance()).toBe(9);
    // The same key for a different search is refused rather than silently free.
    expect((await search(h, w.readKey, { query: 'rent' }, key)).statusCode).toBe(400);
    // Without a key every request is a new search.
    await search(h, w.readKey, { query: 'governing law' });
    expect(await balance()).toBe(8);
    await expectLedgerInvariant(h.db, w.id);
  });

  it('D8: a deleted dataset never matches, and naming it answers 404', async () => {
    const w = await h.workspace();
    const gone = await ingestText(h, w, [['Quarterly zeppelin maintenance schedule.']]);
    expect(hits(await search(h, w.readKey, { query: 'zeppelin maintenance' }))).toHaveLength(1);
    const del = await h.request('DELETE', `/v2/workspaces/${w.id}/files/${gone}`, { key: w.key });
    expect(del.statusCode).toBe(200);
    expect(hits(await search(h, w.readKey, { query: 'zeppelin maintenance' }))).toEqual([]);
    expect((await search(h, w.readKey, { query: 'zeppelin', datasetIds: [gone] })).statusCode).toBe(404);
  }, 60_000);

  it('5: search needs a key (401 plain text); a Read key is enough', async () => {
    const r = await h.request('POST', '/v1/search', { body: { query: 'law' } });
    expect(r.statusCode).toBe(401);
    expect(r.headers['content-type']).toMatch(/^text\/plain/);
  });

  it('7, D6: an image_url on loopback, private, link-local or metadata addresses is refused with 400, uncharged', async () => {
    const w = await h.workspace({ credits: 5 });
    for (const url of [
      `${h.baseUrl}/healthz`,
      'http://localhost:9/page.png',
      'http://10.1.2.3/page.png',
      'http://192.168.0.10/page.png',
      'http://169.254.169.254/latest/meta-data',
      'http://metadata.google.internal/computeMetadata/v1/',
      'http://[::1]/page.png',
      'ftp://example.com/page.png',
    ]) {
      const r = await search(h, w.readKey, { query: { image_url: url } });
      expect(r.statusCode, url).toBe(400);
      expect(r.json()).toMatchObject({ success: false });
    }
    const notImage = `data:image/png;base64,${Buffer.from('not a picture').toString('base64')}`;
    expect((await search(h, w.readKey, { query: { image_url: notImage } })).statusCode).toBe(400);
    expect((await h.admin('GET', `/admin/workspaces/${w.id}`)).json().data.balance).toBe(5);
  });

  it('D6: a data-URL picture of a rendered page finds that page (its words by OCR and its look), also for pages hashed only at search time', async () => {
    const items = await h.request('GET', `/v2/workspaces/${ws.id}/files/${supply}/items?row=jpg&cols=3`, {
      key: ws.key,
    });
    const share = items.json().data[0].share.url as string;
    const jpg = Buffer.from(await (await fetch(share)).arrayBuffer());
    const image_url = `data:image/jpeg;base64,${jpg.toString('base64')}`;
    expect(await h.db.query('SELECT 1 FROM page_hashes WHERE file_id = $1', [supply])).toHaveLength(3);
    const r = await search(h, ws.readKey, { query: { image_url } });
    expect(r.statusCode).toBe(200);
    expect(hits(r)[0]).toMatchObject({ datasetId: supply, col: 3 });
    // Pages ingested before hashes existed are hashed when a picture query first needs them.
    await h.db.query('DELETE FROM page_hashes WHERE file_id = $1', [supply]);
    const again = await search(h, ws.readKey, { query: { image_url, text: 'payment terms' } });
    expect(hits(again)[0]).toMatchObject({ datasetId: supply, col: 3 });
    expect(await h.db.query('SELECT 1 FROM page_hashes WHERE file_id = $1', [supply])).toHaveLength(3);
  }, 120_000);

  it('D6: a picture without words is found by its look alone (perceptual hash of the retrieval image)', async () => {
    const w = await h.workspace();
    // Two word-free pictures: dark blocks on the left, or a bright-to-dark ramp.
    const picture = (f: (x: number, y: number) => number) => {
      const [W, H] = [600, 400];
      const px = Buffer.alloc(W * H);
      for (let y = 0; y < H; y++) for (let x = 0; x < W; x++) px[y * W + x] = f(x, y);
      return sharp(px, { raw: { width: W, height: H, channels: 1 } })
        .png()
        .toBuffer();
    };
    const blocks = await picture((x, y) => ((Math.floor(x / 75) + Math.floor(y / 100)) % 2 ? 40 : 220));
    const ramp = await picture((x) => 255 - Math.floor((x / 600) * 255));
    const ids: string[] = [];
    for (const [name, data] of [
      ['blocks.png', blocks],
      ['ramp.png', ramp],
    ] as const) {
      const r = await h.upload(w, { file: { data, name } });
      const job = ((await r.json()) as Json).data;
      expect((await h.waitJob(w, job.id)).status).toBe('SUCCESS');
      ids.push(job.fileId);
    }
    // The query is the same picture at another size and encoding, as a client would send it.
    for (const [i, data] of [blocks, ramp].entries()) {
      const query = await sharp(data).resize(240).jpeg({ quality: 70 }).toBuffer();
      const r = await search(h, w.readKey, {
        query: { image_url: `data:image/jpeg;base64,${query.toString('base64')}` },
      });
      expect(r.statusCode).toBe(200);
      expect(hits(r).map((x) => x.datasetId)).toEqual([ids[i]]);
    }
  }, 120_000);
});

/**
 * A deterministic OpenAI-compatible embeddings server: text becomes a bag of concepts
 * (synonyms share a dimension, so "vehicle" is near "car" though the words differ); an
 * image becomes its 8 x 8 grey thumbnail minus its mean.
 */
async function fakeEmbeddings() {
  const CONCEPTS: Record<string, string> = {
    automobile: 'car',
    vehicle: 'car',
    vehicles: 'car',
    cars: 'car',
  };
  const DIMS = 128;
  const dim = (w: string) => [...w].reduce((a, c) => (a * 31 + c.charCodeAt(0)) % DIMS, 7);
  const text = (s: string) => {
    const v = new Array<number>(DIMS).fill(0);
    for (const w of s.toLowerCase().match(/[a-z]+/g) ?? []) v[dim(CONCEPTS[w] ?? w)] += 1;
    return v;
  };
  const image = async (url: string) => {
    const px = await sharp(Buffer.from(url.slice(url.indexOf(',') + 1), 'base64'))
      .greyscale()
      .resize(8, 8, { fit: 'fill' })
      .raw()
      .toBuffer();
    const mean = px.reduce((a, b) => a + b, 0) / px.length;
    return [...px].map((x) => x - mean).concat(new Array(DIMS - 64).fill(0));
  };
  const seen = { requests: 0, inputs: 0, images: 0, auth: new Set<string>() };
  const server = http.createServer(async (req, res) => {
    const chunks: Buffer[] = [];
    for await (const c of req) chunks.push(c as Buffer);
    const body = JSON.parse(Buffer.concat(chunks).toString());
    seen.requests++;
    seen.auth.add(String(req.headers.authorization));
    const data = [];
    for (const [index, input] of (body.input as (string | { image: string })[]).entries()) {
      seen.inputs++;
      if (typeof input !== 'string') seen.images++;
      data.push({ index, embedding: typeof input === 'string' ? text(input) : await image(input.image) });
    }
    res.setHeader('content-type', 'application/json');
    res.end(JSON.stringify({ object: 'list', model: body.model, data }));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return { url: `http://127.0.0.1:${port}/v1`, seen, close: () => new Promise((r) => server.close(r)) };
}

describe('search with an embeddings provider (decisions.md D6)', () => {
  let h: Harness;
  let ws: TestWorkspace;
  let fake: Awaited<ReturnType<typeof fakeEmbeddings>>;

  beforeAll(async () => {
    fake = await fakeEmbeddings();
    h = await startHarness(
      {
        EMBEDDINGS_BASE_URL: fake.url,
        EMBEDDINGS_MODEL: 'fake-embed',
        EMBEDDINGS_API_KEY: 'sk-embed-secret',
        EMBEDDINGS_IMAGES: 'true',
      },
      { worker: true },
    );
    ws = await h.workspace({ credits: 1000 });
  }, 60_000);
  afterAll(async () => {
    await h?.close();
    await fake?.close();
  });

  const vectors = async (fileId: string) =>
    h.db.query<{ page: number; kind: string }>(
      'SELECT page, kind FROM page_vectors WHERE file_id = $1 ORDER BY kind, page',
      [fileId],
    );
  const balance = async () => (await h.admin('GET', `/admin/workspaces/${ws.id}`)).json().data.balance;

  it('4.8, D3: a vectorize upload stores a text and an image vector per page; search fuses them with full text', async () => {
    const api = v1(h, ws);
    const { datasetId } = await api.ingest('/v1/vectorize', [
      'Fleet policy: every car is serviced each spring at the depot.',
      'Catering policy: lunches are ordered from the canteen on Fridays.',
      'Travel policy: economy class for flights under six hours.',
    ]);
    expect(await vectors(datasetId)).toEqual([
      { page: 1, kind: 'image' },
      { page: 2, kind: 'image' },
      { page: 3, kind: 'image' },
      { page: 1, kind: 'text' },
      { page: 2, kind: 'text' },
      { page: 3, kind: 'text' },
    ]);
    expect(fake.seen.auth).toEqual(new Set(['Bearer sk-embed-secret']));
    // No page contains "vehicle": only the vectors know it is near "car".
    const r = await search(h, ws.readKey, { query: 'Which vehicle rules apply?' });
    expect(r.statusCode).toBe(200);
    expect(r.json().data[0]).toMatchObject({ datasetId, col: 1 });
    // Both rankings agree on the flights page: fused, it leads.
    const both = await search(h, ws.readKey, { query: 'flights travel class' });
    expect(both.json().data[0]).toMatchObject({ datasetId, col: 3 });
    // A picture is matched by its image vector.
    const items = await h.request('GET', `/v2/workspaces/${ws.id}/files/${datasetId}/items?row=jpg&cols=2`, {
      key: ws.key,
    });
    const jpg = Buffer.from(await (await fetch(items.json().data[0].share.url)).arrayBuffer());
    const pic = await search(h, ws.readKey, {
      query: { image_url: `data:image/jpeg;base64,${jpg.toString('base64')}` },
    });
    expect(pic.json().data[0]).toMatchObject({ datasetId, col: 2 });
  }, 120_000);

  it('4.8: vectorize of an extracted dataset only adds vectors: no page read or charged again; repeating it embeds nothing new', async () => {
    const api = v1(h, ws);
    const { datasetId } = await api.ingest('/v1/extract', [
      'Parking rules for the car park.',
      'Holiday rules.',
    ]);
    expect(await vectors(datasetId)).toEqual([]);
    const before = await balance();
    const r = await h.request('POST', `/v1/datasets/${datasetId}/vectorize`, { key: ws.key });
    expect(r.statusCode).toBe(200);
    const job = await api.waitJob(r.json().data.id);
    expect(job.status).toBe('SUCCESS');
    expect(await vectors(datasetId)).toHaveLength(4);
    expect(await balance()).toBe(before);
    const pages = await h.db.query('SELECT count(*)::int AS n FROM file_pages WHERE file_id = $1', [
      datasetId,
    ]);
    expect(pages[0].n).toBe(2);
    // A second vectorize job of the same file (e.g. a retried one) embeds nothing again.
    const inputs = fake.seen.inputs;
    const again = await h.db.transaction(async (tx) => {
      const id = newId('dsj');
      const now = Date.now();
      await insertJob(tx, {
        ...(await findJob(tx, job.id))!,
        id,
        status: 'IN_PROGRESS',
        finished_at: null,
        created_at: now,
        updated_at: now,
      });
      await enqueue(tx, INGEST_TASK, id, now);
      return id;
    });
    expect((await api.waitJob(again)).status).toBe('SUCCESS');
    expect(fake.seen.inputs).toBe(inputs);
    expect(await vectors(datasetId)).toHaveLength(4);
    expect(await balance()).toBe(before);
  }, 120_000);

  it('D8, 3.4: a purged dataset takes its vectors with it', async () => {
    const { datasetId } = await v1(h, ws).ingest('/v1/vectorize', ['Short-lived memo about the car wash.']);
    expect((await vectors(datasetId)).length).toBeGreaterThan(0);
    const del = await h.request('DELETE', `/v2/workspaces/${ws.id}/files/${datasetId}`, { key: ws.key });
    expect(del.statusCode).toBe(200);
    await until('the purge', async () =>
      (await h.db.query('SELECT 1 FROM files WHERE id = $1', [datasetId])).length === 0 ? true : undefined,
    );
    expect(await vectors(datasetId)).toEqual([]);
    expect(await h.db.query('SELECT 1 FROM page_hashes WHERE file_id = $1', [datasetId])).toEqual([]);
  }, 120_000);
});

describe('full-text candidate pages (the work per search stays flat as a workspace grows)', () => {
  it('reads pages with all three rarest words first, then the words fitting half the budget, then any two of the four rarest', () => {
    const words = ['airtim', 'order', 'steyer', '131795', 'presid'];
    const tiers = candidateQueries([38, 3775, 320, 203, 1591], words);
    expect(tiers).toEqual([
      "'airtim' & '131795' & 'steyer'",
      "('airtim') & !('airtim' & '131795' & 'steyer')",
      "('airtim' & '131795' | 'airtim' & 'steyer' | 'airtim' & 'presid' | '131795' & 'steyer' | '131795' & 'presid' | 'steyer' & 'presid') & !('airtim' & '131795' & 'steyer') & !('airtim')",
    ]);
  });

  it('with no rare word, pages holding several of the rarest; one word alone is read up to the budget', () => {
    const big = CANDIDATE_BUDGET * 10;
    const tiers = candidateQueries([big, big * 2, big * 3], ['juli', '2011', 'agreement']);
    expect(tiers).toEqual([
      "'juli' & '2011' & 'agreement'",
      "('juli' & '2011' | 'juli' & 'agreement' | '2011' & 'agreement') & !('juli' & '2011' & 'agreement')",
    ]);
    expect(candidateQueries([big], ['agreement'])).toEqual(["'agreement'"]);
  });
});
