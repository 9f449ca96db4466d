import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makePicturePdf } from './fixtures/pdf.ts';
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
});
