import { readFile } from 'node:fs/promises';
import { threadId, workerData } from 'node:worker_threads';
import sharp from 'sharp';
import { LocalBlobStore } from '../infra/blob/local.ts';
import { dHashPixels } from '../search/dhash.ts';
import { jpegToPdf } from './image-pdf.ts';
import { imagesJson, wordsJson } from './page-json.ts';
import { CANCELLED } from './page-slots.ts';
import {
  openPdf,
  type PdfDocument,
  PdfOpenError,
  PdfPasswordError,
  type RenderedPage,
} from './pdf/document.ts';
import { epochMs, PROFILING, processStages, type Stages, StageTimes } from './profile.ts';

/**
 * Runs inside a worker thread (piscina): all PDFium and image work happens here, never on
 * the HTTP event loop. A thread keeps the last document open, since a job sends it page
 * after page of the same file.
 */
export type PageView = 'pdf' | 'jpg' | 'embedding_image';

/**
 * With the local blob store, the thread writes the page's files itself (fsynced before it
 * answers): the bytes never cross to the main thread, which would copy them and keep the
 * copies as garbage until its next full GC (tens of MB at 1,000 pages).
 */
export interface PageTarget {
  root: string;
  keys: Record<PageView, string>;
}

/** `slot`: the task's place in the pool's shared table (page-pool.ts). */
export type PageTask = { slot: number } & (
  | { op: 'inspect'; pdfPath: string }
  | { op: 'page'; pdfPath: string; index: number; dpi: number; target?: PageTarget }
  | { op: 'image'; imagePath: string; target?: PageTarget }
);

export interface PageOutput {
  width: number;
  height: number;
  /** Each view's bytes, or with a target its byte size, the file already stored. */
  views: Record<PageView, Uint8Array | number>;
  /** page-json.ts `wordsJson`. */
  words: string;
  text: string;
  /** Pictures on the page (image objects; an uploaded image is one covering the page), as page-json.ts `imagesJson`. */
  images: string;
  /** The blob store's failure with a target, its code kept (a full disk is retried, not the page's fault). */
  storeError?: { message: string; code?: string };
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
  // A new document is a new job: the wait since the last one is not this job's idle time.
  idleBefore = 0;
  const doc = await openPdf(await readFile(pdfPath));
  open = { path: pdfPath, doc };
  return doc;
}

// Pages are parallel across our own threads; libvips must not add threads or caches of its own.
sharp.cache(false);
sharp.concurrency(1);

/**
 * Huffman optimisation costs twice the encode time for ~7% smaller files: not worth it per
 * page. Quality 75 is libjpeg's default and pdftoppm's: the page image looks as the
 * reference renderer's does, in ~10% less encode time and ~13% fewer bytes than 82.
 */
const JPEG = { quality: 75, optimiseCoding: false } as const;

function rawJpeg(r: RenderedPage, quality: number = JPEG.quality): Promise<Buffer> {
  const image = sharp(r.data, { raw: { width: r.width, height: r.height, channels: r.channels } });
  // sharp would make a grey render sRGB again before encoding; a one-channel JPEG is smaller work.
  return (r.channels === 1 ? image.toColourspace('b-w') : image).jpeg({ ...JPEG, quality }).toBuffer();
}

/**
 * The render as one grey channel when every pixel is neutral (the page has no colour worth
 * three channels), else null. One pass both checks and converts: a grey retrieval image
 * costs a third of the encode, the look hash and the bytes of an RGB one.
 */
function asGrey(r: RenderedPage): RenderedPage | null {
  const rgb = r.data;
  const grey = Buffer.allocUnsafeSlow(r.width * r.height);
  // Most of a page is white: four white pixels are three all-ones words (-1 as int32), taken at a time.
  const aligned = rgb.byteOffset % 4 === 0;
  const words = new Uint32Array(rgb.buffer, aligned ? rgb.byteOffset : 0, aligned ? rgb.length >> 2 : 0);
  const out = new Uint32Array(grey.buffer, grey.byteOffset, grey.length >> 2);
  for (let i = 0, j = 0; i < rgb.length; ) {
    const w = i >> 2;
    if ((j & 3) === 0 && w + 2 < words.length && (words[w]! & words[w + 1]! & words[w + 2]!) === -1) {
      out[j >> 2] = 0xffffffff;
      i += 12;
      j += 4;
      continue;
    }
    const v = rgb[i]!;
    if (v !== rgb[i + 1] || v !== rgb[i + 2]) return null;
    grey[j++] = v;
    i += 3;
  }
  return { data: grey, width: r.width, height: r.height, channels: 1 };
}

let nextSlot = 0;
const slotFree: Promise<unknown>[] = [Promise.resolve(), Promise.resolve()];

async function page(task: Extract<PageTask, { op: 'page' }>, release: () => void): Promise<PageOutput> {
  const t = new StageTimes();
  const doc = await documentAt(task.pdfPath);
  const size = doc.pageSize(task.index);
  // PDFium draws the small image directly: five times cheaper than downscaling the big one.
  // Its own buffer (not the reused one, which the big encode will read).
  // Most pages are black on white: drawn and encoded in grey, the big image costs about
  // 3 ms less. Colour anywhere on the page shows in the small render (a colour edge of
  // any size leaves tinted pixels), so only pages without it are drawn in grey.
  const small = t.time('retrieval', () => {
    const drawn = doc.render(task.index, { dpi: task.dpi, maxSide: EMBED_SIDE, format: 'rgb' });
    return asGrey(drawn) ?? drawn;
  });
  const embedding = t.timeAsync('retrieval', () => rawJpeg(small, 80));
  embedding.catch(() => {}); // awaited below
  const format = small.channels === 1 ? 'gray' : 'rgb';
  // The big render goes to a buffer of two this thread takes turns with: the encode of
  // one page reads it on libuv's threads while the next page is drawn into the other.
  const slot = nextSlot;
  nextSlot = 1 - nextSlot;
  await slotFree[slot];
  const big = t.time('render', () =>
    doc.render(task.index, { dpi: task.dpi, maxSide: MAX_SIDE, format, reuse: slot }),
  );
  const jpg = t.timeAsync('jpeg', () => rawJpeg(big));
  jpg.catch(() => {}); // awaited below
  slotFree[slot] = jpg.catch(() => {});
  const { words, text, images } = t.time('text', () => ({
    words: wordsJson(doc.words(task.index)),
    text: doc.text(task.index),
    images: imagesJson(doc.images(task.index)),
  }));
  const pdf = t.time('split', () => doc.extractPage(task.index));
  let ocrImage: PageOutput['ocrImage'];
  if (text.replace(/\s+/g, '').length < MIN_TEXT_CHARS) {
    const ocrStart = performance.now();
    await jpg; // the OCR render takes the same buffer
    const sharp300 = doc.render(task.index, {
      dpi: OCR_DPI,
      maxSide: OCR_MAX_SIDE,
      format: 'gray',
      reuse: slot,
    });
    const png = await sharp(sharp300.data, {
      raw: { width: sharp300.width, height: sharp300.height, channels: 1 },
    })
      .toColourspace('b-w')
      .png({ compressionLevel: 1 })
      .toBuffer();
    ocrImage = { data: png, width: sharp300.width, height: sharp300.height, dpi: OCR_DPI };
    if (PROFILING) t.add('ocrRender', performance.now() - ocrStart);
  }
  // The document is free for the next page from here on; its buffer, once `jpg` is done.
  release();
  const bytes = { pdf, jpg: await jpg, embedding_image: await embedding };
  const out: PageOutput = { width: size.width, height: size.height, views: bytes, words, text, images };
  if (ocrImage) out.ocrImage = ocrImage;
  // The look hash search matches pictures by, of the retrieval image as drawn: the same
  // as search computes from the stored JPEG, give or take its compression.
  out.dhash = t.time('hash', () => dHashPixels(small.data, small.width, small.height, small.channels));
  await t.timeAsync('blob', () => store(out, task.target));
  if (PROFILING) {
    t.add('idle', idleBefore);
    idleBefore = 0;
    // This thread's blob writes' fsyncs (LocalBlobStore counts them per thread).
    t.add('fsync', processStages.ms.fsync ?? 0);
    processStages.ms.fsync = 0;
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
  const out: PageOutput = {
    width: pw,
    height: ph,
    views: { pdf: jpegToPdf(jpg.data, width, height, pw, ph), jpg: jpg.data, embedding_image: embedding },
    words: '[]',
    text: '',
    images: imagesJson([{ box: [0, 0, 1, 1] }]),
    ocrImage: { data: ocr, width, height, dpi: 150 },
  };
  await store(out, task.target);
  return out;
}

const stores = new Map<string, LocalBlobStore>();

/** Writes the views to the target, leaving their sizes in their place. */
async function store(out: PageOutput, target: PageTarget | undefined): Promise<void> {
  if (!target) return;
  const blobs = stores.get(target.root) ?? new LocalBlobStore(target.root);
  stores.set(target.root, blobs);
  const views = Object.entries(out.views) as [PageView, Uint8Array][];
  try {
    await Promise.all(views.map(([view, bytes]) => blobs.put(target.keys[view], bytes)));
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    out.storeError = { message: (err as Error).message, ...(typeof code === 'string' ? { code } : {}) };
    return;
  }
  for (const [view, bytes] of views) out.views[view] = bytes.byteLength;
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

function runOne(task: PageTask, release: () => void): Promise<PageOutput | InspectOutput> {
  if (task.op === 'inspect') return inspect(task);
  if (task.op === 'page') return page(task, release);
  return image(task);
}

/**
 * The pool hands each thread its next tasks ahead of time; tasks still take turns here,
 * since they share the open document and its reused render buffer. A page gives up its
 * turn once it is done with both (`release`), so the next one renders while it finishes
 * its hash and its fsyncs.
 */
let queue: Promise<unknown> = Promise.resolve();
let queued = 0;
/** With profiling: since when this thread has had no task, and how long it went without before the current one. */
let idleSince: number | null = null;
let idleBefore = 0;

const slots = (workerData as { slots?: Int32Array } | null)?.slots;

export default function run(task: PageTask): Promise<PageOutput | InspectOutput> {
  // Tell the pool which thread has the task, unless it gave it up already.
  if (slots && Atomics.compareExchange(slots, task.slot, 0, threadId) === CANCELLED) {
    return Promise.reject(new Error('cancelled'));
  }
  queued++;
  let release = () => {};
  const turn = new Promise<void>((resolve) => {
    release = resolve;
  });
  const result = queue.then(() => {
    if (PROFILING && idleSince !== null) {
      idleBefore = performance.now() - idleSince;
      idleSince = null;
    }
    return runOne(task, release);
  });
  result.catch(() => {}).finally(release);
  queue = turn.finally(() => {
    if (--queued === 0 && PROFILING) idleSince = performance.now();
  });
  return result;
}
