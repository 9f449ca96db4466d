import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { workerData } from 'node:worker_threads';
import { init } from '@embedpdf/pdfium';

/**
 * The PDFium exports this package calls, taken straight from the WASM instance. The cwrap
 * wrappers of @embedpdf/pdfium come from an assertion-enabled Emscripten build and cost
 * microseconds per call, which dominates per-character text loops; a direct export call is
 * a plain WASM call. Pointers and handles are 32-bit offsets; FPDF_BOOL is 0 or 1.
 */
export interface PdfiumExports {
  memory: { readonly buffer: ArrayBuffer };
  malloc(size: number): number;
  free(ptr: number): void;
  PDFiumExt_Init(): void;
  FPDF_GetLastError(): number;
  FPDF_LoadMemDocument64(data: number, size: number, password: number): number;
  FPDF_CreateNewDocument(): number;
  FPDF_CloseDocument(doc: number): void;
  FPDF_GetPageCount(doc: number): number;
  FPDF_GetPageSizeByIndexF(doc: number, index: number, sizeF: number): number;
  FPDF_ImportPagesByIndex(dest: number, src: number, indices: number, length: number, at: number): number;
  FPDF_LoadPage(doc: number, index: number): number;
  FPDF_ClosePage(page: number): void;
  FPDF_GetPageWidthF(page: number): number;
  FPDF_GetPageHeightF(page: number): number;
  FPDF_GetPageBoundingBox(page: number, rectF: number): number;
  FPDFPage_GetRotation(page: number): number;
  FPDF_RenderPageBitmap(
    bitmap: number,
    page: number,
    x: number,
    y: number,
    width: number,
    height: number,
    rotate: number,
    flags: number,
  ): void;
  FPDFBitmap_Create(width: number, height: number, alpha: number): number;
  FPDFBitmap_CreateEx(
    width: number,
    height: number,
    format: number,
    firstScan: number,
    stride: number,
  ): number;
  FPDFBitmap_FillRect(
    bitmap: number,
    left: number,
    top: number,
    width: number,
    height: number,
    argb: number,
  ): number;
  FPDFBitmap_GetBuffer(bitmap: number): number;
  FPDFBitmap_GetStride(bitmap: number): number;
  FPDFBitmap_Destroy(bitmap: number): void;
  FPDFText_LoadPage(page: number): number;
  FPDFText_ClosePage(textPage: number): void;
  FPDFText_CountChars(textPage: number): number;
  FPDFText_GetUnicode(textPage: number, index: number): number;
  FPDFText_IsGenerated(textPage: number, index: number): number;
  FPDFText_GetLooseCharBox(textPage: number, index: number, rectF: number): number;
  FPDFText_GetCharBox(textPage: number, index: number, l: number, r: number, b: number, t: number): number;
  FPDFPage_CountObjects(page: number): number;
  FPDFPage_GetObject(page: number, index: number): number;
  FPDFPageObj_GetType(object: number): number;
  /** Writes an FS_MATRIX (six floats a, b, c, d, e, f). */
  FPDFPageObj_GetMatrix(object: number, matrix: number): number;
  FPDFFormObj_CountObjects(form: number): number;
  FPDFFormObj_GetObject(form: number, index: number): number;
  PDFiumExt_OpenFileWriter(): number;
  PDFiumExt_SaveAsCopy(doc: number, writer: number): number;
  PDFiumExt_GetFileWriterSize(writer: number): number;
  PDFiumExt_GetFileWriterData(writer: number, buffer: number, size: number): number;
  PDFiumExt_CloseFileWriter(writer: number): void;
  // Page building, used by the test fixtures.
  FPDFPage_New(doc: number, index: number, width: number, height: number): number;
  FPDFPage_SetRotation(page: number, rotate: number): void;
  FPDFPage_SetCropBox(page: number, left: number, bottom: number, right: number, top: number): void;
  FPDFPage_InsertObject(page: number, object: number): void;
  FPDFPage_GenerateContent(page: number): number;
  FPDFText_LoadStandardFont(doc: number, name: number): number;
  FPDFFont_Close(font: number): void;
  FPDFPageObj_CreateTextObj(doc: number, font: number, size: number): number;
  FPDFText_SetText(textObject: number, utf16: number): number;
  FPDFPageObj_Transform(
    object: number,
    a: number,
    b: number,
    c: number,
    d: number,
    e: number,
    f: number,
  ): void;
}

/** FPDFPageObj_GetType values. */
export const FPDF_PAGEOBJ_IMAGE = 3;
export const FPDF_PAGEOBJ_FORM = 5;

/** FPDF_GetLastError codes. */
export const FPDF_ERR_FILE = 2;
export const FPDF_ERR_FORMAT = 3;
export const FPDF_ERR_PASSWORD = 4;
export const FPDF_ERR_SECURITY = 5;

/** One PDFium instance: its exports, fresh views of its heap, and allocation helpers. */
export class Pdfium {
  readonly x: PdfiumExports;
  #u8: Uint8Array;
  #f32: Float32Array;
  #f64: Float64Array;

  constructor(exports: PdfiumExports) {
    this.x = exports;
    this.#u8 = new Uint8Array(exports.memory.buffer);
    this.#f32 = new Float32Array(exports.memory.buffer);
    this.#f64 = new Float64Array(exports.memory.buffer);
  }

  // Growing WASM memory detaches every view of the old buffer, so views are renewed on use.
  get u8(): Uint8Array {
    if (this.#u8.buffer !== this.x.memory.buffer) this.#renew();
    return this.#u8;
  }

  get f32(): Float32Array {
    if (this.#f32.buffer !== this.x.memory.buffer) this.#renew();
    return this.#f32;
  }

  get f64(): Float64Array {
    if (this.#f64.buffer !== this.x.memory.buffer) this.#renew();
    return this.#f64;
  }

  #renew(): void {
    const buffer = this.x.memory.buffer;
    this.#u8 = new Uint8Array(buffer);
    this.#f32 = new Float32Array(buffer);
    this.#f64 = new Float64Array(buffer);
  }

  /** Heap bytes in use by the WASM instance; it grows but never shrinks. */
  get heapSize(): number {
    return this.x.memory.buffer.byteLength;
  }

  malloc(size: number): number {
    const ptr = this.x.malloc(Math.max(size, 1));
    if (!ptr) throw new Error(`PDFium out of memory allocating ${size} bytes`);
    return ptr;
  }

  free(ptr: number): void {
    if (ptr) this.x.free(ptr);
  }

  /** Runs `fn` with `size` scratch bytes (8-byte aligned by malloc), freed afterwards. */
  withScratch<T>(size: number, fn: (ptr: number) => T): T {
    const ptr = this.malloc(size);
    try {
      return fn(ptr);
    } finally {
      this.x.free(ptr);
    }
  }

  copyIn(bytes: Uint8Array): number {
    const ptr = this.malloc(bytes.length);
    this.u8.set(bytes, ptr);
    return ptr;
  }

  /** A NUL-terminated UTF-8 copy, for passwords and font names. */
  copyInString(text: string): number {
    const bytes = Buffer.from(`${text}\0`, 'utf8');
    return this.copyIn(bytes);
  }

  /** A NUL-terminated UTF-16LE copy: PDFium's FPDF_WIDESTRING. */
  copyInWide(text: string): number {
    return this.copyIn(Buffer.from(`${text}\0`, 'utf16le'));
  }

  /** Serialises a document with PDFium's own writer into a standalone PDF. */
  save(doc: number): Uint8Array {
    const writer = this.x.PDFiumExt_OpenFileWriter();
    if (!writer) throw new Error('PDFium could not open a file writer');
    try {
      if (!this.x.PDFiumExt_SaveAsCopy(doc, writer)) throw new Error('PDFium could not save the document');
      const size = this.x.PDFiumExt_GetFileWriterSize(writer);
      return this.withScratch(size, (ptr) => {
        this.x.PDFiumExt_GetFileWriterData(writer, ptr, size);
        return this.u8.slice(ptr, ptr + size);
      });
    } finally {
      this.x.PDFiumExt_CloseFileWriter(writer);
    }
  }
}

let instance: Promise<Pdfium> | null = null;

/**
 * The PDFium of the current thread, created on first use. Module state is per thread, so
 * each piscina worker gets its own instance; PDFium is not thread-safe, so never share one.
 */
export function getPdfium(): Promise<Pdfium> {
  instance ??= load().catch((err: unknown) => {
    instance = null;
    throw err;
  });
  return instance;
}

/** The global WebAssembly object, as far as used here (the es2024 lib does not declare it). */
type WasmModule = object;
const Wasm = (
  globalThis as unknown as {
    WebAssembly: {
      Module: new (bytes: Uint8Array) => WasmModule;
      instantiate(module: WasmModule, imports: unknown): Promise<WasmModule>;
    };
  }
).WebAssembly;

let compiled: WasmModule | null = null;

/**
 * PDFium compiled once per process. V8 tiers hot WASM functions up to optimised code inside
 * the module, and every instance made from the same module object shares that code: a page
 * thread started from it renders at full speed from its first page (~4.5 ms a page instead
 * of ~8.5 for its first ten), and the optimised code outlives threads that idle out, as long
 * as the main thread holds the module (page-pool.ts hands it to each thread). Compiling is
 * lazy, so this costs ~15 ms: the bytes are validated, functions compile on first call.
 */
export function pdfiumModule(): WasmModule {
  if (compiled) return compiled;
  // Handing over the bytes avoids Emscripten locating the file through import.meta.url,
  // which test runners and bundlers may rewrite.
  const wasmPath = createRequire(import.meta.url).resolve('@embedpdf/pdfium/pdfium.wasm');
  compiled = new Wasm.Module(readFileSync(wasmPath));
  return compiled;
}

async function load(): Promise<Pdfium> {
  const shared = (workerData as { pdfiumModule?: unknown } | null)?.pdfiumModule;
  const wasm = shared instanceof Wasm.Module ? shared : pdfiumModule();
  let failed: (err: unknown) => void = () => {};
  const instantiateFailed = new Promise<never>((_, reject) => {
    failed = reject;
  });
  const module = await Promise.race([
    init({
      // Emscripten's hook for a module compiled elsewhere: it waits for `receive`.
      instantiateWasm: (imports: unknown, receive: (instance: WasmModule, module: WasmModule) => void) => {
        Wasm.instantiate(wasm, imports).then((instance) => receive(instance, wasm), failed);
        return {};
      },
    } as Parameters<typeof init>[0]),
    instantiateFailed,
  ]);
  const exports = module.pdfium.wasmExports as unknown as PdfiumExports;
  exports.PDFiumExt_Init();
  return new Pdfium(exports);
}
