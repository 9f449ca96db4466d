import { createHash, randomBytes } from 'node:crypto';
import { readdir } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeTextPdf } from './fixtures/pdf.ts';
import { type Harness, startHarness, type TestWorkspace } from './helpers/harness.ts';
import { startS3rver } from './helpers/s3rver.ts';

const MB = 1024 * 1024;
const PART = 5 * MB;
const sha256 = (b: Uint8Array) => createHash('sha256').update(b).digest('hex');

type Field = string | { data: Uint8Array; name: string };

/** What the four routes answer: start `{key}`, append `{etag, partNumber}`, end a job. */
interface Body {
  success: boolean;
  error?: string;
  total?: number;
  balance?: number;
  text?: string;
  data: { key: string; etag: string; partNumber: number } & Record<string, string | undefined>;
}

/** Real multipart over HTTP, fields in the order given (key and partNumber before the file). */
async function post(h: Harness, ws: TestWorkspace, action: string, fields: [string, Field][], key = ws.key) {
  const form = new FormData();
  for (const [name, value] of fields) {
    if (typeof value === 'string') form.append(name, value);
    else form.append(name, new Blob([value.data]), value.name);
  }
  const r = await fetch(`${h.baseUrl}/v1/upload-session/${action}`, {
    method: 'POST',
    headers: { 'x-api-key': key },
    body: form,
  });
  // Rejections before the handler (401, 403) are plain text (section 7).
  const text = await r.text();
  const json = r.headers.get('content-type')?.startsWith('application/json');
  return { status: r.status, body: (json ? JSON.parse(text) : { text }) as Body };
}

async function start(h: Harness, ws: TestWorkspace, extra: Record<string, string> = {}) {
  const fields = {
    fileName: 'report.pdf',
    fileExt: 'pdf',
    fileType: 'application/pdf',
    jobType: 'extract',
    ...extra,
  };
  return post(h, ws, 'start', Object.entries(fields));
}

async function startKey(h: Harness, ws: TestWorkspace, extra: Record<string, string> = {}) {
  const r = await start(h, ws, extra);
  expect(r.status, JSON.stringify(r.body)).toBe(200);
  return r.body.data.key as string;
}

const append = (h: Harness, ws: TestWorkspace, key: string, partNumber: number, data: Uint8Array) =>
  post(h, ws, 'append', [
    ['key', key],
    ['partNumber', String(partNumber)],
    ['file', { data, name: 'blob' }],
  ]);

const end = (h: Harness, ws: TestWorkspace, key: string, parts: unknown) =>
  post(h, ws, 'end', [
    ['key', key],
    ['parts', typeof parts === 'string' ? parts : JSON.stringify(parts)],
  ]);

/** Every chunk file the local blob store holds, as paths under `upload-sessions/`. */
async function chunkFiles(h: Harness): Promise<string[]> {
  if (h.config.blob.kind !== 'local') throw new Error('these tests read the local blob store');
  const root = path.join(h.config.blob.rootDir, 'upload-sessions');
  const entries = await readdir(root, { recursive: true, withFileTypes: true }).catch(() => []);
  return entries
    .filter((e) => e.isFile())
    .map((e) => path.relative(root, path.join(e.parentPath, e.name)))
    .sort();
}

async function fileCount(h: Harness, ws: TestWorkspace): Promise<number> {
  return (await h.request('GET', `/v2/workspaces/${ws.id}/files`, { key: ws.key })).json().total;
}

/**
 * A real PDF over 10 MB: text pages, each also showing one shared image of random pixels
 * (raw RGB, so the bytes stay incompressible). Written as PDF syntax.
 */
function largePdf(pageCount: number, imageBytes: number): Buffer {
  const width = 2048;
  const height = Math.ceil(imageBytes / (width * 3));
  const pixels = randomBytes(width * height * 3);
  const objects: (string | Buffer)[][] = [
    ['<< /Type /Catalog /Pages 2 0 R >>'],
    [
      `<< /Type /Pages /Kids [${Array.from({ length: pageCount }, (_, i) => `${5 + 2 * i} 0 R`).join(' ')}] /Count ${pageCount} >>`,
    ],
    ['<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>'],
    [
      `<< /Type /XObject /Subtype /Image /Width ${width} /Height ${height} /ColorSpace /DeviceRGB /BitsPerComponent 8 /Length ${pixels.length} >>\nstream\n`,
      pixels,
      '\nendstream',
    ],
  ];
  for (let i = 0; i < pageCount; i++) {
    const content = `BT /F1 18 Tf 72 700 Td (Upload session page ${i + 1} of ${pageCount}: the quarterly revenue report) Tj ET\nq 200 100 0 0 72 72 cm /Im0 Do Q\n`;
    objects.push(
      [
        `<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Resources << /Font << /F1 3 0 R >> /XObject << /Im0 4 0 R >> >> /Contents ${6 + 2 * i} 0 R >>`,
      ],
      [`<< /Length ${content.length} >>\nstream\n${content}endstream`],
    );
  }
  const chunks: Buffer[] = [Buffer.from('%PDF-1.4\n%\xe2\xe3\xcf\xd3\n', 'latin1')];
  let length = chunks[0]!.length;
  const offsets: number[] = [];
  const push = (c: string | Buffer) => {
    const b = typeof c === 'string' ? Buffer.from(c, 'latin1') : c;
    chunks.push(b);
    length += b.length;
  };
  for (const [i, body] of objects.entries()) {
    offsets.push(length);
    push(`${i + 1} 0 obj\n`);
    for (const c of body) push(c);
    push('\nendobj\n');
  }
  const xref = length;
  push(`xref\n0 ${objects.length + 1}\n0000000000 65535 f \n`);
  for (const o of offsets) push(`${String(o).padStart(10, '0')} 00000 n \n`);
  push(`trailer\n<< /Size ${objects.length + 1} /Root 1 0 R >>\nstartxref\n${xref}\n%%EOF\n`);
  return Buffer.concat(chunks);
}

function split(data: Uint8Array, size: number): Uint8Array[] {
  const parts: Uint8Array[] = [];
  for (let at = 0; at < data.length; at += size) parts.push(data.subarray(at, at + size));
  return parts;
}

describe('v1 upload sessions (interface.md 4.8, 7, 8)', () => {
  let h: Harness;
  let ws: TestWorkspace;
  let smallPdf: Uint8Array;

  beforeAll(async () => {
    h = await startHarness({}, { worker: true });
    ws = await h.workspace({ tier: 'silver', credits: 100 });
    smallPdf = await makeTextPdf([['A one part session'], ['Second page']]);
  });
  afterAll(() => h.close());

  it('4.8: a 12 MB PDF sent in 5 MB parts ends in a v1 extract job that reaches SUCCESS with every page', async () => {
    const pdf = largePdf(3, 12 * MB);
    expect(pdf.length).toBeGreaterThan(10 * MB);
    const key = await startKey(h, ws, { fileName: 'big report.pdf' });
    expect(key).toMatch(/^upk_[0-9A-Za-z]{43}$/);

    const parts = split(pdf, PART);
    expect(parts).toHaveLength(3);
    const receipts = [];
    for (const [i, chunk] of parts.entries()) {
      const r = await append(h, ws, key, i + 1, chunk);
      expect(r.status, JSON.stringify(r.body)).toBe(200);
      // 4.8: the append response carries no total.
      expect(r.body).toEqual({ success: true, data: { etag: sha256(chunk), partNumber: i + 1 } });
      receipts.push(r.body.data);
    }
    expect(await chunkFiles(h)).toHaveLength(3);

    // Sent out of order: end sorts them by part number.
    const r = await end(h, ws, key, [...receipts].reverse());
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    const job = r.body.data;
    expect(r.body.total).toBe(1);
    expect(job).toMatchObject({ type: 'datasets/extract', status: 'IN_PROGRESS' });
    expect(job.datasetId).toMatch(/^ds_/);
    expect(job.fileId).toBeUndefined();
    // The chunks are gone once the file is assembled.
    expect(await chunkFiles(h)).toEqual([]);

    const done = await h.waitJob(ws, job.id!, 120_000);
    expect(done.status, String(done.statusText)).toBe('SUCCESS');
    const file = (
      await h.request('GET', `/v2/workspaces/${ws.id}/files/${job.datasetId}`, { key: ws.key })
    ).json().data;
    expect(file).toMatchObject({
      type: 'doc',
      fileName: 'big report.pdf',
      fileExt: 'pdf',
      mimeType: 'application/pdf',
      fileSize: pdf.length,
      itemCount: 3,
      expiresAt: null,
    });
    // The stored original is the assembled file, byte for byte.
    const original = await h.blobs.getBuffer(`files/${job.datasetId}/original`);
    expect(sha256(original)).toBe(sha256(pdf));

    // A key ends once; afterwards every call with it is refused.
    expect((await end(h, ws, key, receipts)).status).toBe(400);
    expect((await append(h, ws, key, 4, smallPdf)).status).toBe(400);
    expect((await post(h, ws, 'abort', [['key', key]])).status).toBe(400);
  });

  it('4.8: a session not bound by one request works in one part too, and vectorize is reported as datasets/vectorize', async () => {
    const key = await startKey(h, ws, { jobType: 'vectorize', expiryInDays: '10' });
    const a = await append(h, ws, key, 1, smallPdf);
    const r = await end(h, ws, key, [a.body.data]);
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    expect(r.body.data).toMatchObject({ type: 'datasets/vectorize', status: 'IN_PROGRESS' });
    const file = (
      await h.request('GET', `/v2/workspaces/${ws.id}/files/${r.body.data.datasetId}`, { key: ws.key })
    ).json().data;
    // expiryInDays is counted from the end of the session, when the dataset is made.
    expect(file.expiresAt).toBeGreaterThan(Date.now() + 10 * 86_400_000 - 60_000);
    expect(file.expiresAt).toBeLessThanOrEqual(Date.now() + 10 * 86_400_000);
  });

  it('4.8: the file field may come before key and partNumber', async () => {
    const key = await startKey(h, ws);
    const a = await post(h, ws, 'append', [
      ['file', { data: smallPdf, name: 'x.pdf' }],
      ['key', key],
      ['partNumber', '1'],
    ]);
    expect(a.status, JSON.stringify(a.body)).toBe(200);
    expect(a.body.data).toEqual({ etag: sha256(smallPdf), partNumber: 1 });
    expect((await end(h, ws, key, [a.body.data])).status).toBe(200);
  });

  it('4.8, 8: a part other than the last under 5 MB, a missing part, a wrong etag or an unlisted part is refused with 400 and nothing is registered', async () => {
    const before = await fileCount(h, ws);
    const key = await startKey(h, ws);
    const small = await append(h, ws, key, 1, randomBytes(MB));
    const last = await append(h, ws, key, 2, smallPdf);
    const r1 = await end(h, ws, key, [small.body.data, last.body.data]);
    expect(r1.status).toBe(400);
    expect(r1.body).toMatchObject({ success: false });
    expect(r1.body.error).toMatch(/part 1 .*at least 5 MB/i);

    // Replace part 1 with a full 5 MB part: the old etag no longer matches.
    const big = await append(h, ws, key, 1, randomBytes(PART));
    expect(big.body.data.etag).not.toBe(small.body.data.etag);
    const r2 = await end(h, ws, key, [small.body.data, last.body.data]);
    expect(r2.status).toBe(400);
    expect(r2.body.error).toMatch(/etag/);

    // Part 2 left out of the list, and a gap in the numbering.
    const r3 = await end(h, ws, key, [big.body.data]);
    expect(r3.status).toBe(400);
    expect(r3.body.error).toMatch(/part 2/i);
    const r4 = await end(h, ws, key, [big.body.data, { ...last.body.data, partNumber: 3 }]);
    expect(r4.status).toBe(400);
    expect(r4.body.error).toMatch(/part 2 is missing/i);
    // A part listed that was never uploaded.
    const r5 = await end(h, ws, key, [big.body.data, last.body.data, { etag: 'x', partNumber: 3 }]);
    expect(r5.status).toBe(400);
    expect(r5.body.error).toMatch(/part 3 was never uploaded/i);
    // Malformed lists.
    for (const bad of ['not json', '[]', '{}', JSON.stringify([{ etag: 1, partNumber: 1 }])]) {
      const r = await end(h, ws, key, bad);
      expect(r.status, bad).toBe(400);
    }
    expect((await post(h, ws, 'end', [['key', key]])).status).toBe(400);

    expect(await fileCount(h, ws)).toBe(before);
    // Refusals leave the session open: its first part is random bytes, so the assembled
    // file is refused by type, again with nothing registered.
    const r6 = await end(h, ws, key, [big.body.data, last.body.data]);
    expect(r6.status).toBe(400);
    expect(r6.body.error).toMatch(/type/i);
    expect(await fileCount(h, ws)).toBe(before);
    expect((await post(h, ws, 'abort', [['key', key]])).status).toBe(200);
  });

  it('4.8, 8: append validates partNumber and needs a non-empty file', async () => {
    const key = await startKey(h, ws);
    for (const n of ['0', '-1', '1.5', 'abc', '10001', '']) {
      const r = await post(h, ws, 'append', [
        ['key', key],
        ['partNumber', n],
        ['file', { data: smallPdf, name: 'x' }],
      ]);
      expect(r.status, n).toBe(400);
    }
    expect(
      (
        await post(h, ws, 'append', [
          ['key', key],
          ['partNumber', '1'],
        ])
      ).status,
    ).toBe(400);
    expect((await append(h, ws, key, 1, new Uint8Array(0))).status).toBe(400);
    expect(await chunkFiles(h)).toEqual([]);
    await post(h, ws, 'abort', [['key', key]]);
  });

  it('4.8: abort answers {success: true} and deletes the chunks; the key is then refused', async () => {
    const key = await startKey(h, ws);
    await append(h, ws, key, 1, randomBytes(PART));
    await append(h, ws, key, 2, randomBytes(1000));
    const stored = await chunkFiles(h);
    expect(stored).toHaveLength(2);
    const folder = stored[0]!.split(path.sep)[0]!;
    expect(folder).toMatch(/^upls_/);

    const r = await post(h, ws, 'abort', [['key', key]]);
    expect(r.status).toBe(200);
    expect(r.body).toEqual({ success: true });
    expect((await chunkFiles(h)).filter((f) => f.startsWith(folder))).toEqual([]);

    const again = await append(h, ws, key, 3, randomBytes(10));
    expect(again.status).toBe(400);
    expect(again.body.error).toMatch(/aborted/);
    expect((await end(h, ws, key, [{ etag: 'x', partNumber: 1 }])).status).toBe(400);
    expect((await post(h, ws, 'abort', [['key', key]])).status).toBe(400);
  });

  it('4.8: re-sending a part number replaces the part and its stored bytes', async () => {
    const key = await startKey(h, ws);
    const first = await append(h, ws, key, 1, randomBytes(2000));
    const second = await append(h, ws, key, 1, smallPdf);
    expect(second.body.data).toEqual({ etag: sha256(smallPdf), partNumber: 1 });
    expect(first.body.data.etag).not.toBe(second.body.data.etag);
    expect(await chunkFiles(h)).toHaveLength(1);
    expect((await end(h, ws, key, [second.body.data])).status).toBe(200);
  });

  it('7: an unknown key, a missing key or another workspace’s key is refused with 400 (not 404)', async () => {
    const other = await h.workspace({ tier: 'silver' });
    const key = await startKey(h, ws);
    const unknown = `upk_${'A'.repeat(43)}`;
    for (const k of [unknown, key.slice(0, -1), 'x'.repeat(500)]) {
      expect((await append(h, ws, k, 1, smallPdf)).status).toBe(400);
      expect((await end(h, ws, k, [{ etag: 'e', partNumber: 1 }])).status).toBe(400);
      expect((await post(h, ws, 'abort', [['key', k]])).status).toBe(400);
    }
    const r = await append(h, other, key, 1, smallPdf);
    expect(r.status).toBe(400);
    expect(r.body.error).toMatch(/unknown upload session/i);
    expect((await post(h, other, 'abort', [['key', key]])).status).toBe(400);
    expect((await post(h, ws, 'abort', [['file', { data: smallPdf, name: 'x' }]])).status).toBe(400);
    // The session itself is untouched by the other workspace's attempts.
    expect((await append(h, ws, key, 1, smallPdf)).status).toBe(200);
    await post(h, ws, 'abort', [['key', key]]);
  });

  it('4.8, 5: start validates its fields; a read key gets 403 and an empty balance 402', async () => {
    const base = { fileName: 'a.pdf', fileExt: 'pdf', fileType: 'application/pdf', jobType: 'extract' };
    for (const [name, value] of [
      ['fileName', ''],
      ['fileExt', ''],
      ['fileExt', 'xls'],
      ['fileType', ''],
      ['fileType', 'pdf'],
      ['jobType', 'ocr'],
      ['expiryInDays', 'soon'],
      ['expiryInDays', '0'],
      ['expiryInDays', '366'],
    ] as const) {
      const r = await post(h, ws, 'start', Object.entries({ ...base, [name]: value }));
      expect(r.status, `${name}=${value}`).toBe(400);
      expect(r.body.success).toBe(false);
    }
    const { jobType: _omitted, ...withoutJobType } = base;
    const missing = await post(h, ws, 'start', Object.entries(withoutJobType));
    expect(missing.status).toBe(400);
    expect((await start(h, ws, { fileExt: '.DOCX' })).status).toBe(200);
    expect((await start(h, ws, { expiryInDays: '-1' })).status).toBe(200); // silver: never is allowed

    const ro = await post(h, ws, 'start', Object.entries(base), ws.readKey);
    expect(ro.status).toBe(403);
    const broke = await h.workspace({ tier: 'silver', credits: 0 });
    const r = await start(h, broke);
    expect(r.status).toBe(402);
    expect(r.body).toMatchObject({ success: false, balance: 0 });
  });

  it('D3: expiryInDays -1 (never) and more than 30 days are refused on starter', async () => {
    const starter = await h.workspace({ tier: 'starter' });
    const never = await start(h, starter, { expiryInDays: '-1' });
    expect(never.status).toBe(400);
    expect(never.body.error).toMatch(/expiryInDays/);
    expect((await start(h, starter, { expiryInDays: '31' })).status).toBe(400);
    expect((await start(h, starter, { expiryInDays: '30' })).status).toBe(200);
  });

  it('4.8, 8: parts passing the tier ceiling are refused by the storage allocation (starter 10 MB)', async () => {
    const starter = await h.workspace({ tier: 'starter' });
    const key = await startKey(h, starter);
    expect((await append(h, starter, key, 1, randomBytes(PART))).status).toBe(200);
    expect((await append(h, starter, key, 2, randomBytes(PART))).status).toBe(200);
    const over = await append(h, starter, key, 3, randomBytes(10));
    expect(over.status).toBe(400);
    expect(over.body.error).toMatch(/storage allocation.*10 MB/);
    // Replacing a part counts the new size instead of the old one.
    const bigger = await append(h, starter, key, 2, randomBytes(PART + 1));
    expect(bigger.status).toBe(400);
    expect((await append(h, starter, key, 2, randomBytes(PART - 1))).status).toBe(200);
    expect((await append(h, starter, key, 3, randomBytes(1))).status).toBe(200);
    expect(await chunkFiles(h)).toHaveLength(3);
    await post(h, starter, 'abort', [['key', key]]);
    expect(await chunkFiles(h)).toEqual([]);
  });

  it('4.8: two ends of one session at once register exactly one dataset', async () => {
    const before = await fileCount(h, ws);
    const key = await startKey(h, ws);
    const a = await append(h, ws, key, 1, smallPdf);
    const results = await Promise.all([end(h, ws, key, [a.body.data]), end(h, ws, key, [a.body.data])]);
    expect(results.map((r) => r.status).sort()).toEqual([200, 400]);
    expect(await fileCount(h, ws)).toBe(before + 1);
  });
});

describe('v1 upload session expiry (interface.md 4.8, 7)', () => {
  let h: Harness;
  let ws: TestWorkspace;

  beforeAll(async () => {
    h = await startHarness({ UPLOAD_SESSION_IDLE_MS: '1000', SWEEP_INTERVAL_MS: '1000' }, { worker: true });
    ws = await h.workspace({ tier: 'silver' });
  });
  afterAll(() => h.close());

  it('7: a session idle past UPLOAD_SESSION_IDLE_MS is refused with 400 and the sweep removes its chunks', async () => {
    const key = await startKey(h, ws);
    expect((await append(h, ws, key, 1, randomBytes(PART))).status).toBe(200);
    expect((await append(h, ws, key, 2, randomBytes(1000))).status).toBe(200);
    expect(await chunkFiles(h)).toHaveLength(2);

    await new Promise((r) => setTimeout(r, 1_300));
    const late = await append(h, ws, key, 3, randomBytes(10));
    expect(late.status).toBe(400);
    expect(late.body.error).toMatch(/expired/);
    expect((await end(h, ws, key, [{ etag: 'x', partNumber: 1 }])).status).toBe(400);

    const deadline = Date.now() + 20_000;
    while ((await chunkFiles(h)).length > 0 && Date.now() < deadline)
      await new Promise((r) => setTimeout(r, 200));
    expect(await chunkFiles(h)).toEqual([]);
    expect((await post(h, ws, 'abort', [['key', key]])).status).toBe(400);
  });
});

describe('v1 upload sessions on S3-compatible storage (interface.md 4.8)', () => {
  let h: Harness;
  let ws: TestWorkspace;
  let s3: Awaited<ReturnType<typeof startS3rver>>;

  beforeAll(async () => {
    s3 = await startS3rver('folio-sessions');
    h = await startHarness(
      {
        BLOB_STORE: 's3',
        S3_BUCKET: 'folio-sessions',
        S3_ENDPOINT: s3.endpoint,
        S3_ACCESS_KEY_ID: 'S3RVER',
        S3_SECRET_ACCESS_KEY: 'S3RVER',
      },
      { worker: true },
    );
    ws = await h.workspace({ tier: 'silver' });
  });
  afterAll(async () => {
    await h.close();
    await s3.stop();
  });

  /** How many chunk objects are left; deleting is how S3 counts a prefix here. */
  const chunksLeft = () => h.blobs.deletePrefix('upload-sessions/');

  it('4.8: parts kept in the bucket assemble into a document the worker ingests; end and abort leave no chunk behind', async () => {
    const pdf = largePdf(2, 6 * MB);
    const key = await startKey(h, ws);
    const receipts = [];
    for (const [i, chunk] of split(pdf, PART).entries()) {
      const r = await append(h, ws, key, i + 1, chunk);
      expect(r.status, JSON.stringify(r.body)).toBe(200);
      receipts.push(r.body.data);
    }
    const r = await end(h, ws, key, receipts);
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    expect(await h.blobs.stat(`files/${r.body.data.datasetId}/original`)).toEqual({ size: pdf.length });
    const done = await h.waitJob(ws, r.body.data.id!, 120_000);
    expect(done.status, String(done.statusText)).toBe('SUCCESS');
    expect(await chunksLeft()).toBe(0);
    // On S3 the page threads hand their bytes to the main thread, which puts them (with the
    // local store the threads write the files themselves): every view of every page is there.
    const items = await h.request(
      'GET',
      `/v2/workspaces/${ws.id}/files/${r.body.data.datasetId}/items?limit=100`,
      {
        key: ws.key,
      },
    );
    const views = items.json().data as { row: string; share: { url: string } }[];
    expect(views.map((v) => v.row).sort()).toEqual([
      'embedding_image',
      'embedding_image',
      'jpg',
      'jpg',
      'pdf',
      'pdf',
    ]);
    for (const v of views) {
      const url = new URL(v.share.url);
      const bytes = (await h.request('GET', url.pathname + url.search)).rawPayload;
      const magic = v.row === 'pdf' ? '%PDF-' : '\xff\xd8\xff';
      expect(bytes.subarray(0, magic.length).toString('latin1')).toBe(magic);
    }

    const aborted = await startKey(h, ws);
    expect((await append(h, ws, aborted, 1, randomBytes(PART))).status).toBe(200);
    expect((await post(h, ws, 'abort', [['key', aborted]])).status).toBe(200);
    expect(await chunksLeft()).toBe(0);
  });
});
