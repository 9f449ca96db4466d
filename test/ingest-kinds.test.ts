import { readFile } from 'node:fs/promises';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeOfficeFile } from './fixtures/office.ts';
import { encryptPdf, makeImagePdf, makeScannedPageJpeg, makeTextPdf } from './fixtures/pdf.ts';
import { type Harness, startHarness, type TestWorkspace } from './helpers/harness.ts';

// issue 3: every accepted kind, by content, with real files; OCR for pages without text.
describe('ingest of every accepted kind', () => {
  let h: Harness;
  let ws: TestWorkspace;

  beforeAll(async () => {
    h = await startHarness({}, { worker: true });
    ws = await h.workspace({ credits: 500 });
  });
  afterAll(() => h.close());

  async function ingest(data: Uint8Array, name: string) {
    const r = await h.upload(ws, { file: { data, name } });
    expect(r.status, await r.clone().text()).toBe(200);
    const job = ((await r.json()) as { data: { id: string; fileId: string } }).data;
    const done = await h.waitJob(ws, job.id, 120_000);
    const file = (
      await h.request('GET', `/v2/workspaces/${ws.id}/files/${job.fileId}`, { key: ws.key })
    ).json().data;
    const pages = await h.db.query<{ page: number; text: string; ocr: boolean; words: unknown[] }>(
      'SELECT page, text, ocr, words FROM file_pages WHERE file_id = $1 ORDER BY page',
      [job.fileId],
    );
    return { done, file, pages };
  }

  it('reads a scanned (image-only) PDF page with OCR, giving words with boxes', async () => {
    const scan = await makeScannedPageJpeg(['PURCHASE ORDER 4471', 'Delivery to Rotterdam harbour']);
    const { done, file, pages } = await ingest(await makeImagePdf([scan]), 'scan.pdf');
    expect(done.status).toBe('SUCCESS');
    expect(file.itemCount).toBe(1);
    expect(pages[0].ocr).toBe(true);
    expect(pages[0].text).toMatch(/PURCHASE ORDER/i);
    expect(pages[0].text).toMatch(/Rotterdam/);
    expect(pages[0].words.length).toBeGreaterThanOrEqual(5);
  });

  it.each(['jpeg', 'png', 'webp'] as const)(
    'ingests a %s image as one page with OCR text',
    async (format) => {
      const jpeg = await makeScannedPageJpeg(['Quarterly revenue 2026', 'Region North']);
      const img = await sharp(jpeg).toFormat(format).toBuffer();
      // A misleading name: detection is by content.
      const { done, file, pages } = await ingest(img, `picture.${format === 'jpeg' ? 'png' : 'jpg'}`);
      expect(done.status).toBe('SUCCESS');
      expect(file).toMatchObject({ type: 'image', itemCount: 1, mimeType: `image/${format}` });
      expect(pages[0].text).toMatch(/revenue/i);
      const items = (
        await h.request('GET', `/v2/workspaces/${ws.id}/files/${file.id}/items`, { key: ws.key })
      ).json();
      expect(items.total).toBe(3);
      const pdf = items.data.find((i: { row: string }) => i.row === 'pdf');
      const bytes = Buffer.from(await (await fetch(pdf.share.url)).arrayBuffer());
      expect(bytes.subarray(0, 5).toString()).toBe('%PDF-');
    },
  );

  it.each([
    ['docx', 3],
    ['pptx', 1],
    ['xlsx', 1],
    ['doc', 1],
  ] as const)(
    'converts a %s with LibreOffice and ingests its pages',
    async (kind, minPages) => {
      const path = await makeOfficeFile(kind, kind === 'docx' ? { pages: 3 } : {});
      const { done, file, pages } = await ingest(await readFile(path), `office.${kind}`);
      expect(done.status, String(done.statusText)).toBe('SUCCESS');
      expect(file.fileExt).toBe(kind);
      expect(file.itemCount).toBeGreaterThanOrEqual(minPages);
      expect(
        pages
          .map((p) => p.text)
          .join(' ')
          .trim().length,
      ).toBeGreaterThan(5);
    },
    180_000,
  );

  it('opens an encrypted PDF whose user password is empty', async () => {
    const pdf = await encryptPdf(await makeTextPdf([['Confidential memo about pricing']]), {
      userPassword: '',
      ownerPassword: 'owner-secret',
    });
    const { done, pages } = await ingest(pdf, 'locked.pdf');
    expect(done.status).toBe('SUCCESS');
    expect(pages[0].text).toContain('Confidential memo');
  });

  it('ends ERROR "password protected" for a PDF that needs a password, charging nothing', async () => {
    const before = (await h.admin('GET', `/admin/workspaces/${ws.id}`)).json().data.balance;
    const pdf = await encryptPdf(await makeTextPdf([['secret']]), {
      userPassword: 'open-sesame',
      ownerPassword: 'owner',
    });
    const { done, file } = await ingest(pdf, 'secret.pdf');
    expect(done).toMatchObject({ status: 'ERROR', statusText: expect.stringMatching(/password protected/) });
    expect(file.itemCount).toBe(0);
    expect((await h.admin('GET', `/admin/workspaces/${ws.id}`)).json().data.balance).toBe(before);
  });

  it('respects page rotation: a landscape page gives a landscape image', async () => {
    const { file } = await ingest(await makeTextPdf([['Rotated page text']], { rotate: 90 }), 'rot.pdf');
    const items = (
      await h.request('GET', `/v2/workspaces/${ws.id}/files/${file.id}/items?row=jpg`, { key: ws.key })
    ).json();
    const jpg = Buffer.from(await (await fetch(items.data[0].share.url)).arrayBuffer());
    const meta = await sharp(jpg).metadata();
    expect(meta.width!).toBeGreaterThan(meta.height!);
  });
});
