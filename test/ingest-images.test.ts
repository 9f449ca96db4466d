import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openPdf } from '../src/ingest/pdf/document.ts';
import { makeLargeTextPdf, makePicturePdf } from './fixtures/pdf.ts';
import { type Harness, startHarness, type TestWorkspace } from './helpers/harness.ts';

type Box = [number, number, number, number];

// Image columns answer with regions: every stored page lists its pictures' boxes.
describe('ingest stores the boxes of pictures on each page', () => {
  let h: Harness;
  let ws: TestWorkspace;

  beforeAll(async () => {
    h = await startHarness({}, { worker: true });
    ws = await h.workspace({ credits: 50 });
  });
  afterAll(() => h.close());

  async function ingest(data: Uint8Array, name: string) {
    const r = await h.upload(ws, { file: { data, name } });
    expect(r.status, await r.clone().text()).toBe(200);
    const job = ((await r.json()) as { data: { id: string; fileId: string } }).data;
    expect(await h.waitJob(ws, job.id, 120_000)).toMatchObject({ status: 'SUCCESS' });
    return h.db.query<{ page: number; images: { box: Box }[]; ocr: boolean }>(
      'SELECT page, images, ocr FROM file_pages WHERE file_id = $1 ORDER BY page',
      [job.fileId],
    );
  }

  it('a PDF: each picture where it is displayed, rounded to 4 decimals; none on a text page', async () => {
    const lines = ['Annual report 2026: revenue by region and the board'];
    const pdf = makePicturePdf([
      {
        lines,
        images: [
          { rect: [72, 500, 200, 150] },
          { rect: [300, 100, 250, 200], forms: 1 },
          { rect: [72, 400, 468, 2] }, // a rule: left out
        ],
      },
      { lines, images: [{ rect: [72, 500, 200, 150] }], rotate: 90 },
      { lines, images: [] },
    ]);
    const pages = await ingest(pdf, 'report.pdf');
    expect(pages.map((p) => [p.page, p.ocr, p.images.length])).toEqual([
      [1, false, 2],
      [2, false, 1],
      [3, false, 0],
    ]);
    // Stored to 4 decimals, like word boxes.
    const expectBoxes = (images: { box: Box }[], expected: Box[]) => {
      expect(images.map((i) => i.box.length)).toEqual(expected.map(() => 4));
      images.forEach(({ box }, i) => {
        box.forEach((n, k) => {
          expect(Number.isInteger(Math.round(n * 10_000 * 1e6) / 1e6), `${n}`).toBe(true);
          expect(Math.abs(n - expected[i]![k]!), `${box} vs ${expected[i]}`).toBeLessThan(1.5e-4);
        });
      });
    };
    expectBoxes(pages[0]!.images, [
      [72 / 612, 142 / 792, 272 / 612, 292 / 792],
      [300 / 612, 492 / 792, 550 / 612, 692 / 792],
    ]);
    // Turned a quarter clockwise: 792 wide, 612 high, the picture's top edge now on the right.
    expectBoxes(pages[1]!.images, [[500 / 792, 72 / 612, 650 / 792, 272 / 612]]);
  });

  it('an uploaded image: one picture covering the page', async () => {
    const png = await sharp({
      create: { width: 400, height: 300, channels: 3, background: { r: 40, g: 120, b: 200 } },
    })
      .png()
      .toBuffer();
    const pages = await ingest(png, 'photo.png');
    expect(pages).toHaveLength(1);
    expect(pages[0]!.images).toEqual([{ box: [0, 0, 1, 1] }]);
  });

  // Spec 1 (a rendered JPG per page): a page without colour is drawn and stored in grey,
  // one channel; any colour on it, even a small picture or a thin line, keeps all three.
  it('page JPEGs: grey for a black-on-white page, colour as soon as the page has any', async () => {
    const lines = ['Quarterly statement of accounts', 'Total due 1,250.00'];
    const pdf = makePicturePdf([
      { lines, images: [] },
      { lines, images: [{ rect: [400, 700, 24, 24], color: [200, 30, 40] }] },
      { lines, images: [{ rect: [72, 300, 468, 1], color: [0, 90, 200] }] },
      { lines, images: [{ rect: [72, 300, 200, 100], color: [128, 128, 128] }] },
    ]);
    const r = await h.upload(ws, { file: { data: pdf, name: 'colours.pdf' } });
    const job = ((await r.json()) as { data: { id: string; fileId: string } }).data;
    expect(await h.waitJob(ws, job.id, 120_000)).toMatchObject({ status: 'SUCCESS' });
    const items = await h.request('GET', `/v2/workspaces/${ws.id}/files/${job.fileId}/items?limit=100`, {
      key: ws.key,
    });
    const jpgs = (items.json().data as { row: string; col: number; share: { url: string } }[])
      .filter((i) => i.row === 'jpg')
      .sort((a, b) => a.col - b.col);
    expect(jpgs.map((j) => j.col)).toEqual([1, 2, 3, 4]);
    const looks = [];
    for (const j of jpgs) {
      const url = new URL(j.share.url);
      const bytes = (await h.request('GET', url.pathname + url.search)).rawPayload;
      const meta = await sharp(bytes).metadata();
      const stats = await sharp(bytes).stats();
      looks.push({ channels: meta.channels, width: meta.width, darkest: stats.channels[0]!.min });
    }
    // All at 150 dpi (US Letter: 1275 px wide), the text drawn (dark pixels) on every page.
    expect(looks.map((l) => l.width)).toEqual([1275, 1275, 1275, 1275]);
    for (const l of looks) expect(l.darkest).toBeLessThan(60);
    expect(looks.map((l) => l.channels)).toEqual([1, 3, 3, 1]);
    // The retrieval images follow their pages: grey pages get one channel, coloured three.
    const small = (items.json().data as { row: string; col: number; share: { url: string } }[])
      .filter((i) => i.row === 'embedding_image')
      .sort((a, b) => a.col - b.col);
    const smallLooks = [];
    for (const j of small) {
      const url = new URL(j.share.url);
      const meta = await sharp((await h.request('GET', url.pathname + url.search)).rawPayload).metadata();
      smallLooks.push([meta.channels, Math.max(meta.width ?? 0, meta.height ?? 0)]);
    }
    expect(smallLooks).toEqual([
      [1, 512],
      [3, 512],
      [3, 512],
      [1, 512],
    ]);
    // The red square is still red in the stored JPEG.
    const url = new URL(jpgs[1]!.share.url);
    const page2 = (await h.request('GET', url.pathname + url.search)).rawPayload;
    const { data, info } = await sharp(page2).raw().toBuffer({ resolveWithObject: true });
    let red = 0;
    for (let k = 0; k < data.length; k += info.channels) {
      if (data[k]! > 160 && data[k + 1]! < 80 && data[k + 2]! < 80) red++;
    }
    // 24 pt square at 150 dpi: 50 x 50 px, less its JPEG-softened edge.
    expect(red).toBeGreaterThan(1800);
    expect(red).toBeLessThan(2700);
  });

  // Each page thread draws the next page while the last one is still being encoded (two
  // buffers taken in turn): every stored JPEG must be its own page, to the last row.
  it('page JPEGs: each is its own page, with pages drawn and encoded at once', async () => {
    const r = await h.upload(ws, { file: { data: await makeLargeTextPdf(24), name: 'dense.pdf' } });
    const job = ((await r.json()) as { data: { id: string; fileId: string } }).data;
    expect(await h.waitJob(ws, job.id, 120_000)).toMatchObject({ status: 'SUCCESS' });
    const items = await h.request('GET', `/v2/workspaces/${ws.id}/files/${job.fileId}/items?limit=100`, {
      key: ws.key,
    });
    const views = items.json().data as { row: string; col: number; share: { url: string } }[];
    const bytesOf = async (row: string, col: number) => {
      const url = new URL(views.find((v) => v.row === row && v.col === col)!.share.url);
      return (await h.request('GET', url.pathname + url.search)).rawPayload;
    };
    /** The lower half of a page, grey. */
    const lowerHalf = (px: Buffer) => px.subarray(px.length >> 1);
    const diff = (a: Buffer, b: Buffer) => {
      let sum = 0;
      for (let k = 0; k < a.length; k++) sum += Math.abs(a[k]! - b[k]!);
      return sum / a.length;
    };
    const stored: Buffer[] = [];
    const reference: Buffer[] = [];
    for (let page = 1; page <= 24; page++) {
      const jpg = await sharp(await bytesOf('jpg', page))
        .greyscale()
        .raw()
        .toBuffer();
      stored.push(lowerHalf(jpg));
      // The page's own single-page PDF, drawn here on its own.
      const doc = await openPdf(await bytesOf('pdf', page));
      reference.push(lowerHalf(Buffer.from(doc.render(0, { dpi: 150, format: 'gray' }).data)));
      doc.close();
    }
    for (let k = 0; k < 24; k++) {
      const own = diff(stored[k]!, reference[k]!);
      const other = diff(stored[k]!, reference[(k + 1) % 24]!);
      expect(own, `page ${k + 1}: ${own} vs the next page ${other}`).toBeLessThan(other / 3);
    }
  });
});
