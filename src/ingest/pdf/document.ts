import { type PageImage, readImageObjects } from './image-objects.ts';
import {
  FPDF_ERR_FILE,
  FPDF_ERR_FORMAT,
  FPDF_ERR_PASSWORD,
  FPDF_ERR_SECURITY,
  getPdfium,
  type Pdfium,
} from './pdfium.ts';
import { readTextLayer, type TextLayer, type Word } from './text-layer.ts';

export type { PageImage } from './image-objects.ts';
export type { Word } from './text-layer.ts';

/** The document needs a password we were not given (or the one given is wrong). */
export class PdfPasswordError extends Error {
  override name = 'PdfPasswordError';
}

/** Not a PDF, or damaged beyond what PDFium can repair. */
export class PdfOpenError extends Error {
  override name = 'PdfOpenError';
}

/** Raw RGBA (or RGB) pixels, 8 bits per channel, rows top to bottom without padding, on white. */
export interface RenderedPage {
  width: number;
  height: number;
  channels: 1 | 3 | 4;
  data: Buffer;
}

export interface RenderOptions {
  dpi: number;
  /** Longest side in pixels; the resolution drops below `dpi` to stay within it. */
  maxSide?: number;
  /**
   * `rgb` skips the alpha byte: a quarter less to draw, copy and encode. `gray`, one byte
   * per pixel, draws in half the time of `rgb`; for pages without colour. Default `rgba`.
   */
  format?: 'rgba' | 'rgb' | 'gray';
  /**
   * Copy into a buffer this document keeps and reuses: no 8 MB allocation (and garbage) per
   * page. The pixels are valid only until the next `render` with the same `reuse` (`true`
   * is slot 0; slots let one render be encoded while the next is drawn).
   */
  reuse?: boolean | number;
}

const FPDFBitmap_BGR = 2;
const FPDFBitmap_BGRA = 4;
const FPDFBitmap_Gray = 1;

export interface PdfDocument {
  readonly pageCount: number;
  /** Points, as displayed: crop box, after /Rotate. */
  pageSize(index: number): { width: number; height: number };
  render(index: number, opts: RenderOptions): RenderedPage;
  words(index: number): Word[];
  text(index: number): string;
  /** Characters in the page's text layer: 0 for a scanned page that needs OCR. */
  charCount(index: number): number;
  /**
   * Where the page's image objects (also inside form XObjects) are drawn, as fractions of
   * the displayed page; tiny ones (rules, bullets) left out. A scan is one full-page image.
   */
  images(index: number): PageImage[];
  /** A standalone one-page PDF with the page's resources, never encrypted. */
  extractPage(index: number): Uint8Array;
  close(): void;
}

const FPDF_ANNOT = 0x01;
/** Makes PDFium write RGBA instead of its native BGRA, which is what sharp reads. */
const FPDF_REVERSE_BYTE_ORDER = 0x10;
/** Draws in grey levels: a grey bitmap stays blank without it. */
const FPDF_GRAYSCALE = 0x08;
/** Bigger bitmaps risk exhausting the 2 GB WASM heap (4 bytes a pixel, plus the JS copy). */
const HARD_MAX_SIDE = 16_384;
const HARD_MAX_PIXELS = 100_000_000;

/**
 * Opens a PDF from memory. Without a password, or when the given one fails, the empty user
 * password is tried, so documents encrypted only against editing open as they do in viewers.
 */
export async function openPdf(bytes: Uint8Array, password?: string): Promise<PdfDocument> {
  const pdfium = await getPdfium();
  const data = pdfium.copyIn(bytes);
  let lastError = 0;
  for (const candidate of password ? [password, ''] : ['']) {
    const pass = pdfium.copyInString(candidate);
    const doc = pdfium.x.FPDF_LoadMemDocument64(data, bytes.length, pass);
    pdfium.free(pass);
    if (doc) return new OpenDocument(pdfium, doc, data);
    lastError = pdfium.x.FPDF_GetLastError();
    if (lastError !== FPDF_ERR_PASSWORD) break;
  }
  pdfium.free(data);
  if (lastError === FPDF_ERR_PASSWORD) {
    throw new PdfPasswordError(password ? 'wrong password for PDF' : 'PDF is password protected');
  }
  if (lastError === FPDF_ERR_SECURITY) throw new PdfOpenError('PDF uses an unsupported encryption scheme');
  if (lastError === FPDF_ERR_FORMAT || lastError === FPDF_ERR_FILE) {
    throw new PdfOpenError('not a PDF, or damaged beyond repair');
  }
  throw new PdfOpenError(`PDFium could not open the document (error ${lastError})`);
}

/** WASM resources of one document; what the finalizer frees if `close` is never called. */
interface Handles {
  pdfium: Pdfium;
  doc: number;
  data: number;
  page: { index: number; handle: number } | null;
}

function release(h: Handles): void {
  if (h.page) h.pdfium.x.FPDF_ClosePage(h.page.handle);
  h.page = null;
  if (h.doc) h.pdfium.x.FPDF_CloseDocument(h.doc);
  // PDFium reads the file lazily from this buffer, so it lives as long as the document.
  h.pdfium.free(h.data);
  h.doc = 0;
  h.data = 0;
}

const finalizer = new FinalizationRegistry<Handles>(release);

class OpenDocument implements PdfDocument {
  readonly pageCount: number;
  #h: Handles;
  /** The last page's text layer: callers ask for words, text and charCount in a row. */
  #text: { index: number; layer: TextLayer } | null = null;

  constructor(pdfium: Pdfium, doc: number, data: number) {
    this.#h = { pdfium, doc, data, page: null };
    this.pageCount = pdfium.x.FPDF_GetPageCount(doc);
    finalizer.register(this, this.#h, this);
  }

  pageSize(index: number): { width: number; height: number } {
    const { pdfium, doc } = this.#open(index);
    return pdfium.withScratch(8, (size) => {
      if (!pdfium.x.FPDF_GetPageSizeByIndexF(doc, index, size))
        throw new Error(`PDFium has no size for page ${index}`);
      const f32 = pdfium.f32;
      return { width: f32[size >> 2]!, height: f32[(size >> 2) + 1]! };
    });
  }

  render(index: number, opts: RenderOptions): RenderedPage {
    const { pdfium } = this.#open(index);
    const page = this.#page(index);
    const { width, height } = pixelSize(
      pdfium.x.FPDF_GetPageWidthF(page),
      pdfium.x.FPDF_GetPageHeightF(page),
      opts,
    );
    const channels = opts.format === 'gray' ? 1 : opts.format === 'rgb' ? 3 : 4;
    const bitmap = pdfium.x.FPDFBitmap_CreateEx(
      width,
      height,
      channels === 1 ? FPDFBitmap_Gray : channels === 3 ? FPDFBitmap_BGR : FPDFBitmap_BGRA,
      0,
      0,
    );
    if (!bitmap) throw new Error(`PDFium could not allocate a ${width}x${height} bitmap`);
    try {
      pdfium.x.FPDFBitmap_FillRect(bitmap, 0, 0, width, height, 0xffffffff);
      pdfium.x.FPDF_RenderPageBitmap(
        bitmap,
        page,
        0,
        0,
        width,
        height,
        0,
        FPDF_ANNOT | (channels === 1 ? FPDF_GRAYSCALE : FPDF_REVERSE_BYTE_ORDER),
      );
      const buffer = pdfium.x.FPDFBitmap_GetBuffer(bitmap);
      const stride = pdfium.x.FPDFBitmap_GetStride(bitmap);
      const row = width * channels;
      const slot = opts.reuse === true ? 0 : opts.reuse === false ? undefined : opts.reuse;
      const data = slot === undefined ? Buffer.allocUnsafe(row * height) : this.#scratch(slot, row * height);
      const heap = pdfium.u8;
      if (stride === row) data.set(heap.subarray(buffer, buffer + row * height));
      else
        for (let y = 0; y < height; y++)
          data.set(heap.subarray(buffer + y * stride, buffer + y * stride + row), y * row);
      return { width, height, channels, data };
    } finally {
      pdfium.x.FPDFBitmap_Destroy(bitmap);
    }
  }

  #scratchBuffers: Buffer[] = [];

  #scratch(slot: number, size: number): Buffer {
    const held = this.#scratchBuffers[slot];
    if (held && held.length >= size) return held.subarray(0, size);
    const fresh = Buffer.allocUnsafeSlow(size);
    this.#scratchBuffers[slot] = fresh;
    return fresh;
  }

  words(index: number): Word[] {
    return this.#layer(index).words;
  }

  text(index: number): string {
    return this.#layer(index).text;
  }

  charCount(index: number): number {
    return this.#layer(index).charCount;
  }

  images(index: number): PageImage[] {
    return readImageObjects(this.#h.pdfium, this.#page(index));
  }

  extractPage(index: number): Uint8Array {
    const { pdfium, doc } = this.#open(index);
    const out = pdfium.x.FPDF_CreateNewDocument();
    if (!out) throw new Error('PDFium could not create a document');
    const indices = pdfium.malloc(4);
    try {
      new Int32Array(pdfium.u8.buffer, indices, 1)[0] = index;
      if (!pdfium.x.FPDF_ImportPagesByIndex(out, doc, indices, 1, 0)) {
        throw new Error(`PDFium could not copy page ${index}`);
      }
      return pdfium.save(out);
    } finally {
      pdfium.free(indices);
      pdfium.x.FPDF_CloseDocument(out);
    }
  }

  close(): void {
    if (!this.#h.doc) return;
    finalizer.unregister(this);
    release(this.#h);
    this.#text = null;
  }

  #open(index: number): Handles {
    if (!this.#h.doc) throw new Error('PDF document is closed');
    if (!Number.isInteger(index) || index < 0 || index >= this.pageCount) {
      throw new RangeError(`page index ${index} outside 0-${this.pageCount - 1}`);
    }
    return this.#h;
  }

  /** Keeps one page parsed, since render, words and extractPage come page by page. */
  #page(index: number): number {
    const h = this.#open(index);
    if (h.page?.index === index) return h.page.handle;
    if (h.page) h.pdfium.x.FPDF_ClosePage(h.page.handle);
    h.page = null;
    const handle = h.pdfium.x.FPDF_LoadPage(h.doc, index);
    if (!handle) throw new PdfOpenError(`PDFium could not load page ${index + 1}`);
    h.page = { index, handle };
    return handle;
  }

  #layer(index: number): TextLayer {
    if (this.#text?.index === index) return this.#text.layer;
    const layer = readTextLayer(this.#h.pdfium, this.#page(index));
    this.#text = { index, layer };
    return layer;
  }
}

/** Pixel size at `dpi`, scaled down so the longest side stays within `maxSide`. */
function pixelSize(
  widthPt: number,
  heightPt: number,
  opts: RenderOptions,
): { width: number; height: number } {
  if (!(opts.dpi > 0) || (opts.maxSide !== undefined && !(opts.maxSide >= 1))) {
    throw new RangeError(`bad render options ${JSON.stringify(opts)}`);
  }
  const limit = Math.floor(Math.min(opts.maxSide ?? HARD_MAX_SIDE, HARD_MAX_SIDE));
  let scale = opts.dpi / 72;
  const longest = Math.max(widthPt, heightPt, 1e-3);
  if (longest * scale > limit) scale = limit / longest;
  const area = Math.max(widthPt * heightPt, 1e-6);
  if (area * scale * scale > HARD_MAX_PIXELS) scale = Math.sqrt(HARD_MAX_PIXELS / area);
  return {
    width: Math.max(1, Math.min(limit, Math.round(widthPt * scale))),
    height: Math.max(1, Math.min(limit, Math.round(heightPt * scale))),
  };
}
