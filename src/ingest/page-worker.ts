import { readFile } from 'node:fs/promises';
import sharp from 'sharp';
import { dHash } from '../search/dhash.ts';
import { jpegToPdf } from './image-pdf.ts';
import { openPdf, type PdfDocument, PdfOpenError, PdfPasswordError } from './pdf/document.ts';
import { epochMs, PROFILING, type Stages, StageTimes } from './profile.ts';

/**
 * Runs inside a worker thread (piscina): all PDFium and image work happens here, never on
 * the HTTP event loop. A thread keeps the last document open, since a job sends it page
 * after page of the same file.
 */
export type PageTask =
  | { op: 'inspect'; pdfPath: string }
  | { op: 'page'; pdfPath: string; index: number; dpi: number }
  | { op: 'image'; imagePath: string };

export interface PageOutput {
  width: number;
  height: number;
  pdf: Uint8Array;
  jpg: Uint8Array;
  embedding: Uint8Array;
  words: { text: string; box: [number, number, number, number] }[];
  text: string;
  /** Pictures on the page (image objects; an uploaded image is one covering the page). */
  images: { box: [number, number, number, number] }[];
  /** The retrieval image's look hash (search/dhash.ts); absent if it could not be made. */
  dhash?: string;
  /** Present when the page has no usable text layer: a sharper image for OCR. */
  ocrImage?: { data: Uint8Array; width: number; height: number; dpi: number };
  /** With FOLIO_INGEST_PROFILE=1: this page's stage times, and when the thread finished it. */
  profile?: { stages: Stages; doneAt: number };
}

export type InspectOutput = { pageCount: number } | { error: 'password' | 'unreadable'; message: string };

const MAX_SIDE = 2000;
const EMBED_SIDE = 512;
const OCR_DPI = 300;
const OCR_MAX_SIDE = 3500;
/** Fewer visible characters than this and the page counts as scanned. */
const MIN_TEXT_CHARS = 16;

let open: { path: string; doc: PdfDocument } | null = null;

async function documentAt(pdfPath: string): Promise<PdfDocument> {
  if (open?.path === pdfPath) return open.doc;
  open?.doc.close();
  open = null;
  const doc = await openPdf(await readFile(pdfPath));
  open = { path: pdfPath, doc };
  return doc;
}

// Pages are parallel across our own threads; libvips must not add threads or caches of its own.
sharp.cache(false);
sharp.concurrency(1);

/** Huffman optimisation costs twice the encode time for ~7% smaller files: not worth it per page. */
const JPEG = { quality: 82, optimiseCoding: false } as const;

/** Each render reuses one buffer per thread: encode it before the next render. */
const RGB = { format: 'rgb', reuse: true } as const;

function rawJpeg(
  r: { data: Buffer; width: number; height: number; channels: 3 | 4 },
  quality: number = JPEG.quality,
): Promise<Buffer> {
  return sharp(r.data, { raw: { width: r.width, height: r.height, channels: r.channels } })
    .jpeg({ ...JPEG, quality })
    .toBuffer();
}

async function page(task: Extract<PageTask, { op: 'page' }>): Promise<PageOutput> {
  const t = new StageTimes();
  const doc = await documentAt(task.pdfPath);
  const size = doc.pageSize(task.index);
  const big = t.time('render', () => doc.render(task.index, { dpi: task.dpi, maxSide: MAX_SIDE, ...RGB }));
  // The encodes run on libuv's threads while this one goes on with PDFium: the small
  // render, the text and the split overlap them instead of waiting.
  const jpg = t.timeAsync('jpeg', () => rawJpeg(big));
  jpg.catch(() => {}); // awaited below
  // PDFium draws the small image directly: five times cheaper than downscaling the big one.
  // Its own buffer (not the reused one, which the big encode still reads).
  const small = t.time('retrieval', () =>
    doc.render(task.index, { dpi: task.dpi, maxSide: EMBED_SIDE, format: 'rgb' }),
  );
  const embedding = t.timeAsync('retrieval', () => rawJpeg(small, 80));
  embedding.catch(() => {}); // awaited below
  const { words, text, images } = t.time('text', () => ({
    words: doc.words(task.index),
    text: doc.text(task.index),
    images: doc.images(task.index),
  }));
  const pdf = t.time('split', () => doc.extractPage(task.index));
  const out: PageOutput = {
    width: size.width,
    height: size.height,
    pdf,
    jpg: await jpg,
    embedding: await embedding,
    words,
    text,
    images,
  };
  // The look hash search matches pictures by, of the stored retrieval image, as search
  // would compute it later; a failure leaves it to search.
  out.dhash = await t.timeAsync('hash', () => dHash(out.embedding).catch(() => undefined));
  if (text.replace(/\s+/g, '').length < MIN_TEXT_CHARS) {
    const ocrStart = performance.now();
    const sharp300 = doc.render(task.index, { dpi: OCR_DPI, maxSide: OCR_MAX_SIDE, ...RGB });
    const png = await sharp(sharp300.data, {
      raw: { width: sharp300.width, height: sharp300.height, channels: 3 },
    })
      .greyscale()
      .png({ compressionLevel: 1 })
      .toBuffer();
    out.ocrImage = { data: png, width: sharp300.width, height: sharp300.height, dpi: OCR_DPI };
    if (PROFILING) t.add('ocrRender', performance.now() - ocrStart);
  }
  if (PROFILING) {
    t.add('idle', idleBefore);
    idleBefore = 0;
    out.profile = { stages: t.ms, doneAt: epochMs() };
  }
  return out;
}

/** An uploaded picture is one page: its own JPEG, a retrieval image, a PDF around it, and OCR. */
async function image(task: Extract<PageTask, { op: 'image' }>): Promise<PageOutput> {
  const base = sharp(await readFile(task.imagePath), { limitInputPixels: 268_402_689 })
    .rotate()
    .toColourspace('srgb');
  const jpg = await base
    .clone()
    .resize(MAX_SIDE, MAX_SIDE, { fit: 'inside', withoutEnlargement: true })
    .flatten({ background: '#ffffff' })
    .jpeg({ quality: 85 })
    .toBuffer({ resolveWithObject: true });
  const embedding = await sharp(jpg.data)
    .resize(EMBED_SIDE, EMBED_SIDE, { fit: 'inside' })
    .jpeg({ quality: 80 })
    .toBuffer();
  const { width, height } = jpg.info;
  // Shown at 150 dpi: a 1275 px wide scan becomes an 8.5 in (612 pt) page.
  const pw = (width * 72) / 150;
  const ph = (height * 72) / 150;
  const ocr = await sharp(jpg.data).greyscale().png({ compressionLevel: 1 }).toBuffer();
  return {
    width: pw,
    height: ph,
    pdf: jpegToPdf(jpg.data, width, height, pw, ph),
    jpg: jpg.data,
    embedding,
    words: [],
    text: '',
    images: [{ box: [0, 0, 1, 1] }],
    ocrImage: { data: ocr, width, height, dpi: 150 },
  };
}

async function inspect(task: Extract<PageTask, { op: 'inspect' }>): Promise<InspectOutput> {
  try {
    return { pageCount: (await documentAt(task.pdfPath)).pageCount };
  } catch (err) {
    if (err instanceof PdfPasswordError) return { error: 'password', message: 'password protected' };
    if (err instanceof PdfOpenError) return { error: 'unreadable', message: (err as Error).message };
    throw err;
  }
}

function runOne(task: PageTask): Promise<PageOutput | InspectOutput> {
  if (task.op === 'inspect') return inspect(task);
  if (task.op === 'page') return page(task);
  return image(task);
}

/**
 * The pool hands each thread a second task ahead of time; tasks still run one after the
 * other here, since they share the open document and its reused render buffer.
 */
let queue: Promise<unknown> = Promise.resolve();
let queued = 0;
/** With profiling: since when this thread has had no task, and how long it went without before the current one. */
let idleSince: number | null = null;
let idleBefore = 0;

export default function run(task: PageTask): Promise<PageOutput | InspectOutput> {
  queued++;
  const result = queue.then(() => {
    if (PROFILING && idleSince !== null) {
      idleBefore = performance.now() - idleSince;
      idleSince = null;
    }
    return runOne(task);
  });
  queue = result
    .catch(() => {})
    .finally(() => {
      if (--queued === 0 && PROFILING) idleSince = performance.now();
    });
  return result;
}
