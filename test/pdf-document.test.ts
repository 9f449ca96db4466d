import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import {
  openPdf,
  type PageImage,
  PdfOpenError,
  PdfPasswordError,
  type RenderedPage,
  type Word,
} from '../src/ingest/pdf/document.ts';
import { getPdfium } from '../src/ingest/pdf/pdfium.ts';
import {
  encryptPdf,
  makeImagePdf,
  makeLargeTextPdf,
  makePicturePdf,
  makeScannedPageJpeg,
  makeTextPdf,
} from './fixtures/pdf.ts';

const LINES = ['Invoice number 4471 issued to Rotterdam', 'Total due 1,250.00 EUR within 30 days'];
const CORPUS = '/work/shared/corpus/extraction/dev';

function isDark(page: RenderedPage, x: number, y: number): boolean {
  const at = (y * page.width + x) * 4;
  return page.data[at]! + page.data[at + 1]! + page.data[at + 2]! < 384;
}

function darkPixelsIn(page: RenderedPage, box: Word['box']): number {
  let dark = 0;
  for (let y = Math.floor(box[1] * page.height); y < Math.ceil(box[3] * page.height); y++) {
    for (let x = Math.floor(box[0] * page.width); x < Math.ceil(box[2] * page.width); x++) {
      if (isDark(page, x, y)) dark++;
    }
  }
  return dark;
}

/** Every word covers ink, and no ink lies outside the word boxes (give or take 2 px). */
function expectBoxesOnInk(page: RenderedPage, words: Word[]): void {
  expect(words.length).toBeGreaterThan(0);
  for (const word of words) expect(darkPixelsIn(page, word.box), word.text).toBeGreaterThan(10);
  let outside = 0;
  let total = 0;
  for (let y = 0; y < page.height; y++) {
    for (let x = 0; x < page.width; x++) {
      if (!isDark(page, x, y)) continue;
      total++;
      const fx = x / page.width;
      const fy = y / page.height;
      const mx = 2 / page.width;
      const my = 2 / page.height;
      const covered = words.some(
        (w) => fx >= w.box[0] - mx && fx <= w.box[2] + mx && fy >= w.box[1] - my && fy <= w.box[3] + my,
      );
      if (!covered) outside++;
    }
  }
  expect(total).toBeGreaterThan(100);
  expect(outside).toBe(0);
}

function expectValidBoxes(words: Word[]): void {
  for (const { box } of words) {
    expect(box.every((n) => n >= 0 && n <= 1)).toBe(true);
    expect(box[0]).toBeLessThan(box[2]);
    expect(box[1]).toBeLessThan(box[3]);
  }
}

describe('PdfDocument on generated PDFs', () => {
  it('reads page count, text, words and boxes in reading order', async () => {
    const doc = await openPdf(await makeTextPdf([LINES, ['Second page']]));
    try {
      expect(doc.pageCount).toBe(2);
      expect(doc.pageSize(0)).toEqual({ width: 612, height: 792 });
      expect(doc.text(0)).toBe(LINES.join('\n'));
      expect(doc.text(1)).toBe('Second page');
      const words = doc.words(0);
      expect(words.map((w) => w.text)).toEqual(LINES.join(' ').split(' '));
      expect(doc.charCount(0)).toBe(LINES.join('').replaceAll(' ', '').length);
      expectValidBoxes(words);
      const first = words.slice(0, 6);
      const second = words.slice(6);
      for (let i = 1; i < first.length; i++) expect(first[i]!.box[0]).toBeGreaterThan(first[i - 1]!.box[2]);
      expect(second[0]!.box[1]).toBeGreaterThan(first[0]!.box[3]);
      // 72 pt margin of a 612 pt page.
      expect(words[0]!.box[0]).toBeCloseTo(72 / 612, 2);
    } finally {
      doc.close();
    }
  });

  it('splits a word hyphenated across lines, which PDFium joins', async () => {
    const doc = await openPdf(await makeTextPdf([['An exam-', 'ple follows']]));
    try {
      expect(doc.text(0)).toBe('An exam-\nple follows');
      const [, exam, ple] = doc.words(0);
      expect(exam!.text).toBe('exam-');
      expect(ple!.box[1]).toBeGreaterThan(exam!.box[3]);
    } finally {
      doc.close();
    }
  });

  it('keeps several open documents apart', async () => {
    const a = await openPdf(await makeTextPdf([['Apple one'], ['Apple two']]));
    const b = await openPdf(await makeTextPdf([['Banana one'], ['Banana two']]));
    expect([a.text(1), b.text(0), a.text(0), b.text(1)]).toEqual([
      'Apple two',
      'Banana one',
      'Apple one',
      'Banana two',
    ]);
    a.close();
    expect(b.words(0).map((w) => w.text)).toEqual(['Banana', 'one']);
    b.close();
  });

  it('renders a Letter page at 150 dpi as white RGBA, and caps the longest side', async () => {
    const doc = await openPdf(await makeTextPdf([LINES]));
    try {
      const page = doc.render(0, { dpi: 150 });
      expect([page.width, page.height, page.channels]).toEqual([1275, 1650, 4]);
      expect(page.data.length).toBe(1275 * 1650 * 4);
      expect([...page.data.subarray(0, 4)]).toEqual([255, 255, 255, 255]);
      expectBoxesOnInk(page, doc.words(0));
      const capped = doc.render(0, { dpi: 150, maxSide: 1000 });
      expect([capped.width, capped.height]).toEqual([773, 1000]);
      expect(() => doc.render(0, { dpi: 0 })).toThrow(RangeError);
    } finally {
      doc.close();
    }
  });

  it.each([90, 180, 270] as const)('applies /Rotate %i to size, render and word boxes', async (rotate) => {
    const doc = await openPdf(await makeTextPdf([LINES], { rotate }));
    try {
      const size = doc.pageSize(0);
      const page = doc.render(0, { dpi: 100 });
      if (rotate === 180) {
        expect(size).toEqual({ width: 612, height: 792 });
      } else {
        expect(size).toEqual({ width: 792, height: 612 });
        expect([page.width, page.height]).toEqual([1100, 850]);
      }
      const words = doc.words(0);
      expect(words.map((w) => w.text).sort()).toEqual(LINES.join(' ').split(' ').sort());
      expectValidBoxes(words);
      const longWord = words.find((w) => w.text === 'Rotterdam')!;
      const [w, h] = [longWord.box[2] - longWord.box[0], longWord.box[3] - longWord.box[1]];
      if (rotate === 180) expect(w).toBeGreaterThan(h);
      else expect(h * size.height).toBeGreaterThan(w * size.width);
      expectBoxesOnInk(page, words);
    } finally {
      doc.close();
    }
  });

  it('honours the crop box in size, render and word boxes', async () => {
    const full = await openPdf(await makeTextPdf([LINES]));
    const cropped = await openPdf(await makeTextPdf([LINES], { cropBox: [50, 400, 450, 750] }));
    try {
      expect(cropped.pageSize(0)).toEqual({ width: 400, height: 350 });
      const page = cropped.render(0, { dpi: 72 });
      expect([page.width, page.height]).toEqual([400, 350]);
      const [a, b] = [full.words(0)[0]!.box, cropped.words(0)[0]!.box];
      expect(b[0]).toBeCloseTo((a[0] * 612 - 50) / 400, 3);
      expect(b[1]).toBeCloseTo((a[1] * 792 - (792 - 750)) / 350, 3);
      expectBoxesOnInk(cropped.render(0, { dpi: 150 }), cropped.words(0));
    } finally {
      full.close();
      cropped.close();
    }
  });

  it('leaves out words outside the crop box', async () => {
    const doc = await openPdf(
      await makeTextPdf([['Visible line', 'x', 'x', 'x', 'x', 'Hidden line']], {
        cropBox: [0, 655, 612, 792],
      }),
    );
    try {
      expect(doc.text(0)).toBe('Visible line\nx\nx');
      expectValidBoxes(doc.words(0));
    } finally {
      doc.close();
    }
  });

  it('extracts one page as a standalone PDF with the same text and rotation', async () => {
    const doc = await openPdf(
      await makeTextPdf([['Alpha page'], ['Bravo page'], ['Charlie page']], { rotate: 90 }),
    );
    try {
      const single = await openPdf(doc.extractPage(1));
      expect(single.pageCount).toBe(1);
      expect(single.text(0)).toBe('Bravo page');
      expect(single.pageSize(0)).toEqual(doc.pageSize(1));
      single.close();
    } finally {
      doc.close();
    }
  });

  it('opens encrypted PDFs with an empty user password, and asks for others', async () => {
    const plain = await makeTextPdf([LINES]);
    const open = await openPdf(await encryptPdf(plain, { userPassword: '', ownerPassword: 'owner-secret' }));
    expect(open.text(0)).toBe(LINES.join('\n'));
    const extracted = await openPdf(open.extractPage(0));
    expect(extracted.text(0)).toBe(LINES.join('\n'));
    extracted.close();
    open.close();

    const locked = await encryptPdf(plain, { userPassword: 'open-sesame', ownerPassword: 'owner' });
    await expect(openPdf(locked)).rejects.toBeInstanceOf(PdfPasswordError);
    await expect(openPdf(locked, 'wrong')).rejects.toBeInstanceOf(PdfPasswordError);
    const unlocked = await openPdf(locked, 'open-sesame');
    expect(unlocked.text(0)).toBe(LINES.join('\n'));
    unlocked.close();
  });

  it('rejects bytes that are not a PDF', async () => {
    await expect(
      openPdf(Buffer.from('this is not a PDF at all, just some text'.repeat(50))),
    ).rejects.toBeInstanceOf(PdfOpenError);
    await expect(openPdf(new Uint8Array(0))).rejects.toBeInstanceOf(PdfOpenError);
  });

  it('finds no text layer on a scanned page, yet renders its ink', async () => {
    const doc = await openPdf(await makeImagePdf([await makeScannedPageJpeg(['PURCHASE ORDER 4471'])]));
    try {
      expect(doc.pageSize(0)).toEqual({ width: 612, height: 792 });
      expect(doc.charCount(0)).toBe(0);
      expect(doc.words(0)).toEqual([]);
      expect(doc.text(0)).toBe('');
      const page = doc.render(0, { dpi: 72 });
      expect(darkPixelsIn(page, [0, 0, 1, 1])).toBeGreaterThan(100);
    } finally {
      doc.close();
    }
  });

  it('renders RGB in the same byte order as RGBA, into a reused buffer when asked', async () => {
    const colour = await sharp({
      create: { width: 300, height: 200, channels: 3, background: { r: 200, g: 30, b: 90 } },
    })
      .jpeg({ quality: 95 })
      .toBuffer();
    const doc = await openPdf(await makeImagePdf([colour]));
    const rgba = doc.render(0, { dpi: 72 });
    const rgb = doc.render(0, { dpi: 72, format: 'rgb', reuse: true });
    expect(rgb).toMatchObject({ width: rgba.width, height: rgba.height, channels: 3 });
    const mid = Math.floor(rgb.height / 2) * rgb.width + Math.floor(rgb.width / 2);
    const px = [...rgb.data.subarray(mid * 3, mid * 3 + 3)];
    expect(px).toEqual([...rgba.data.subarray(mid * 4, mid * 4 + 3)]);
    expect(px[0]).toBeGreaterThan(150); // red stays red: no BGR swap
    expect(px[2]).toBeLessThan(140);
    const again = doc.render(0, { dpi: 36, format: 'rgb', reuse: true });
    expect(again.data.buffer).toBe(rgb.data.buffer); // the same memory, no new allocation
    doc.close();
  });

  it('rejects bad page indexes and use after close', async () => {
    const doc = await openPdf(await makeTextPdf([['One']]));
    expect(() => doc.words(1)).toThrow(RangeError);
    expect(() => doc.pageSize(-1)).toThrow(RangeError);
    doc.close();
    doc.close();
    expect(() => doc.text(0)).toThrow(/closed/);
  });
});

/** The bounding box of the pixels of roughly this colour, as fractions of the render. */
function colourBox(page: RenderedPage, rgb: [number, number, number]): PageImage['box'] | null {
  let [x0, y0, x1, y1] = [Number.POSITIVE_INFINITY, Number.POSITIVE_INFINITY, -1, -1];
  for (let y = 0; y < page.height; y++) {
    for (let x = 0; x < page.width; x++) {
      const at = (y * page.width + x) * page.channels;
      if (rgb.every((c, i) => Math.abs(page.data[at + i]! - c) < 40)) {
        x0 = Math.min(x0, x);
        y0 = Math.min(y0, y);
        x1 = Math.max(x1, x + 1);
        y1 = Math.max(y1, y + 1);
      }
    }
  }
  if (x1 < 0) return null;
  return [x0 / page.width, y0 / page.height, x1 / page.width, y1 / page.height];
}

function expectBox(actual: PageImage['box'] | undefined, expected: number[], tolerance: number): void {
  expect(actual).toBeDefined();
  for (let i = 0; i < 4; i++)
    expect(Math.abs(actual![i]! - expected[i]!), `${actual} vs ${expected}`).toBeLessThan(tolerance);
}

const RED: [number, number, number] = [255, 0, 0];
const BLUE: [number, number, number] = [0, 0, 255];
const GREEN: [number, number, number] = [0, 160, 0];

describe('PdfDocument image objects', () => {
  it('boxes pictures where they are painted, through nested forms, without rules, bullets or duplicates', async () => {
    const doc = await openPdf(
      makePicturePdf([
        {
          lines: ['Quarterly report with a chart and a logo'],
          images: [
            { rect: [72, 500, 200, 150] },
            { rect: [72, 500, 200, 150] }, // the same picture painted twice
            { rect: [300, 100, 250, 200], forms: 2, color: BLUE },
            { rect: [72, 400, 468, 2] }, // a rule
            { rect: [72, 300, 6, 6] }, // a bullet
            { rect: [500, 700, 200, 200], color: GREEN }, // runs off the top-right corner
            { rect: [700, 100, 100, 100] }, // wholly off the page
          ],
        },
        { lines: ['A page of text and nothing else'], images: [] },
      ]),
    );
    try {
      const images = doc.images(0);
      expect(images).toHaveLength(3);
      const [a, b, c] = images.map((i) => i.box);
      expectBox(a, [72 / 612, (792 - 650) / 792, 272 / 612, (792 - 500) / 792], 1e-4);
      expectBox(b, [300 / 612, (792 - 300) / 792, 550 / 612, (792 - 100) / 792], 1e-4);
      expectBox(c, [500 / 612, 0, 1, 92 / 792], 1e-4);
      expect(doc.images(1)).toEqual([]);
      // The same places PDFium paints them, to within a pixel at 100 dpi.
      const page = doc.render(0, { dpi: 100 });
      const px = 1.5 / page.width;
      expectBox(colourBox(page, BLUE)!, b!, px);
      expectBox(colourBox(page, GREEN)!, c!, px);
      expect(doc.text(0)).toBe('Quarterly report with a chart and a logo');
    } finally {
      doc.close();
    }
  });

  it.each([0, 90, 180, 270] as const)(
    'applies /Rotate %i and the crop box to picture boxes, as rendered',
    async (rotate) => {
      const doc = await openPdf(
        makePicturePdf([
          {
            rotate,
            cropBox: [36, 50, 576, 760],
            images: [
              { rect: [72, 500, 200, 150] },
              { rect: [300, 100, 250, 200], forms: 1, color: BLUE },
              { rect: [150, 150, 100, 100], angle: 30, color: GREEN },
            ],
          },
        ]),
      );
      try {
        const images = doc.images(0).map((i) => i.box);
        expect(images).toHaveLength(3);
        const page = doc.render(0, { dpi: 100 });
        const px = 1.5 / Math.min(page.width, page.height);
        expectBox(colourBox(page, RED)!, images[0]!, px);
        expectBox(colourBox(page, BLUE)!, images[1]!, px);
        // A turned picture: the box is its upright envelope.
        expectBox(colourBox(page, GREEN)!, images[2]!, px);
        if (rotate === 90) {
          // Turned a quarter clockwise: the picture's top edge (y 650) is now its right edge.
          expectBox(images[0], [(500 - 50) / 710, (72 - 36) / 540, (650 - 50) / 710, (272 - 36) / 540], 1e-4);
        }
      } finally {
        doc.close();
      }
    },
  );

  it('sees a scan as one picture covering the page', async () => {
    const doc = await openPdf(await makeImagePdf([await makeScannedPageJpeg(['PURCHASE ORDER 4471'])]));
    try {
      expect(doc.images(0)).toEqual([{ box: [0, 0, 1, 1] }]);
    } finally {
      doc.close();
    }
  });
});

describe('PdfDocument at scale', () => {
  it('keeps WASM memory flat over two passes of a 1,000-page document', async () => {
    const pdfium = await getPdfium();
    const doc = await openPdf(await makeLargeTextPdf(1000));
    try {
      expect(doc.pageCount).toBe(1000);
      expect(doc.text(999).startsWith('Page 1000 of 1000\n')).toBe(true);
      const heap: number[] = [];
      const rss: number[] = [];
      for (let pass = 0; pass < 2; pass++) {
        for (let i = 0; i < doc.pageCount; i++) {
          doc.render(i, { dpi: 36 });
          expect(doc.words(i).length).toBeGreaterThan(250);
          doc.extractPage(i);
        }
        heap.push(pdfium.heapSize);
        rss.push(process.memoryUsage().rss);
      }
      expect(heap[1]).toBe(heap[0]);
      expect(rss[1]! - rss[0]!).toBeLessThan(64 * 1024 * 1024);
    } finally {
      doc.close();
    }
  });

  it('prints render and text timings on 50 pages', async () => {
    const doc = await openPdf(await makeLargeTextPdf(50));
    try {
      doc.render(0, { dpi: 150 });
      let started = performance.now();
      for (let i = 0; i < doc.pageCount; i++) doc.render(i, { dpi: 150 });
      const render = (performance.now() - started) / doc.pageCount;
      started = performance.now();
      for (let i = 0; i < doc.pageCount; i++) doc.words(i);
      const words = (performance.now() - started) / doc.pageCount;
      let images = 0;
      for (let i = 0; i < doc.pageCount; i++) {
        doc.words(i); // the page is loaded, as after rendering it
        started = performance.now();
        doc.images(i);
        images += performance.now() - started;
      }
      console.log(
        `PDFium: render 150 dpi ${render.toFixed(1)} ms/page, words ${words.toFixed(2)} ms/page, ` +
          `images ${(images / doc.pageCount).toFixed(3)} ms/page`,
      );
    } finally {
      doc.close();
    }
  });
});

const corpus = existsSync(CORPUS) ? readdirSync(CORPUS).filter((f) => f.endsWith('.pdf')) : [];
const sample = [
  ...corpus.filter((f) => f.startsWith('deepform')).slice(0, 2),
  ...corpus.filter((f) => f.startsWith('kleister')).slice(0, 2),
];

describe.skipIf(sample.length === 0)('PdfDocument on real PDFs', () => {
  it.each(sample)('reads %s', async (name) => {
    const doc = await openPdf(readFileSync(path.join(CORPUS, name)));
    try {
      expect(doc.pageCount).toBeGreaterThan(0);
      expect(doc.text(0).trim().length).toBeGreaterThan(20);
      expectValidBoxes(doc.words(0));
      const page = doc.render(0, { dpi: 72 });
      expect(page.width * page.height).toBeGreaterThan(0);
    } finally {
      doc.close();
    }
  });
});
