/**
 * Writes PDF syntax by hand: pages of any size, standard-14 text in WinAnsi encoding (left,
 * right or centre aligned with the fonts' real glyph widths), stroked and filled shapes, and
 * RGB raster image XObjects. Coordinates are points from the page's top-left corner, so the
 * page height can still change (a receipt roll grows with its content) until `save`.
 */
import { deflateSync } from 'node:zlib';
import { Encodings, Font } from '@pdf-lib/standard-fonts';
import type { Box } from '../../src/engine/types.ts';

export const FONT_NAMES = [
  'Helvetica',
  'Helvetica-Bold',
  'Times-Roman',
  'Times-Bold',
  'Courier',
  'Courier-Bold',
] as const;
export type FontName = (typeof FONT_NAMES)[number];

/** Page sizes in points. The receipt roll is 80 mm wide; its height is set after layout. */
export const PAGE = {
  letter: [612, 792],
  a4: [595.28, 841.89],
  legal: [612, 1008],
  receipt: [226.77, 600],
} as const satisfies Record<string, readonly [number, number]>;

/** An RGB raster, 8 bits per channel, rows top to bottom. */
export interface Raster {
  width: number;
  height: number;
  rgb: Uint8Array;
}

export type Color = number | readonly [number, number, number];

// ---------- fonts and encoding ----------

const widthTables = new Map<FontName, Float64Array>();

/** Width of each WinAnsi code in 1/1000 em. */
function widths(font: FontName): Float64Array {
  let table = widthTables.get(font);
  if (table) return table;
  const metrics = Font.load(font);
  table = new Float64Array(256);
  const names = new Map<number, string>();
  for (let cp = 0; cp < 0x2200; cp++) {
    if (!Encodings.WinAnsi.canEncodeUnicodeCodePoint(cp)) continue;
    const { code, name } = Encodings.WinAnsi.encodeUnicodeCodePoint(cp);
    names.set(code, name);
  }
  for (let code = 0; code < 256; code++) {
    const name = names.get(code);
    table[code] = (name && metrics.getWidthOfGlyph(name)) || 0;
  }
  widthTables.set(font, table);
  return table;
}

const encodeCache = new Map<string, number[]>();

/** WinAnsi codes of a string; throws on characters the encoding lacks. */
export function winAnsiCodes(text: string): number[] {
  const cached = encodeCache.get(text);
  if (cached) return cached;
  const codes: number[] = [];
  for (const ch of text) {
    const cp = ch.codePointAt(0)!;
    if (cp >= 0x20 && cp < 0x7f) codes.push(cp);
    else if (Encodings.WinAnsi.canEncodeUnicodeCodePoint(cp))
      codes.push(Encodings.WinAnsi.encodeUnicodeCodePoint(cp).code);
    else throw new Error(`not in WinAnsi: ${JSON.stringify(ch)} in ${JSON.stringify(text)}`);
  }
  if (encodeCache.size > 20_000) encodeCache.clear();
  encodeCache.set(text, codes);
  return codes;
}

/** The string's advance width in points. */
export function textWidth(text: string, font: FontName, size: number): number {
  const table = widths(font);
  let w = 0;
  for (const code of winAnsiCodes(text)) w += table[code]!;
  return (w * size) / 1000;
}

/** A PDF string literal of WinAnsi bytes with ( ) \ escaped. */
function pdfString(text: string): string {
  let out = '(';
  for (const code of winAnsiCodes(text)) {
    if (code === 0x28 || code === 0x29 || code === 0x5c) out += `\\${String.fromCharCode(code)}`;
    else out += String.fromCharCode(code);
  }
  return `${out})`;
}

/** Splits text into lines no wider than `width`, breaking at spaces (a long word stays whole). */
export function wrapText(text: string, font: FontName, size: number, width: number): string[] {
  const out: string[] = [];
  const space = textWidth(' ', font, size);
  let line = '';
  let lineWidth = 0;
  for (const word of text.split(/\s+/).filter(Boolean)) {
    const w = textWidth(word, font, size);
    if (line && lineWidth + space + w > width) {
      out.push(line);
      line = word;
      lineWidth = w;
    } else {
      lineWidth = line ? lineWidth + space + w : w;
      line = line ? `${line} ${word}` : word;
    }
  }
  if (line) out.push(line);
  return out;
}

// ---------- pages ----------

const num = (n: number) => {
  const r = Math.round(n * 100) / 100;
  return Object.is(r, -0) ? '0' : String(r);
};

function colorOp(c: Color, stroke: boolean): string {
  if (typeof c === 'number') return `${num(c)} ${stroke ? 'G' : 'g'}`;
  return `${c.map((v) => num(v / 255)).join(' ')} ${stroke ? 'RG' : 'rg'}`;
}

type Op =
  | { t: 'text'; x: number; y: number; font: FontName; size: number; text: string; color: Color }
  | { t: 'line'; x1: number; y1: number; x2: number; y2: number; width: number; color: Color }
  | {
      t: 'rect';
      x: number;
      y: number;
      w: number;
      h: number;
      stroke: number;
      fill: Color | null;
      color: Color;
    }
  | { t: 'image'; x: number; y: number; w: number; h: number; image: number };

export interface TextOptions {
  align?: 'left' | 'right' | 'center';
  color?: Color;
}

export interface RectOptions {
  /** Line width of the outline; 0 for none. Default 0.75. */
  stroke?: number;
  /** Fill colour: grey level 0-1 or RGB 0-255. */
  fill?: Color | null;
  color?: Color;
}

export class PdfPage {
  readonly ops: Op[] = [];
  /** 1-based page number. */
  readonly number: number;
  width: number;
  height: number;
  readonly #doc: PdfDoc;
  readonly #boxes: [Box, number, number, number, number][] = [];

  constructor(doc: PdfDoc, number: number, width: number, height: number) {
    this.#doc = doc;
    this.number = number;
    this.width = width;
    this.height = height;
  }

  /**
   * Draws one line of text with its baseline `y` points below the page top; `x` is the left
   * edge, the right edge (align right) or the centre. Returns the drawn extent [left, right].
   */
  text(
    x: number,
    y: number,
    text: string,
    font: FontName,
    size: number,
    opts: TextOptions = {},
  ): [number, number] {
    const w = textWidth(text, font, size);
    const left = opts.align === 'right' ? x - w : opts.align === 'center' ? x - w / 2 : x;
    if (text.trim()) this.ops.push({ t: 'text', x: left, y, font, size, text, color: opts.color ?? 0 });
    return [left, left + w];
  }

  line(x1: number, y1: number, x2: number, y2: number, width = 0.75, color: Color = 0): void {
    this.ops.push({ t: 'line', x1, y1, x2, y2, width, color });
  }

  /** A rectangle with its top-left corner at (x, y). */
  rect(x: number, y: number, w: number, h: number, opts: RectOptions = {}): void {
    this.ops.push({
      t: 'rect',
      x,
      y,
      w,
      h,
      stroke: opts.stroke ?? 0.75,
      fill: opts.fill ?? null,
      color: opts.color ?? 0,
    });
  }

  /**
   * Paints a raster with its top-left corner at (x, y); returns its box as page fractions
   * (kept up to date by `setHeight`).
   */
  image(x: number, y: number, w: number, h: number, raster: Raster): Box {
    const image = this.#doc.addImage(raster);
    this.ops.push({ t: 'image', x, y, w, h, image });
    const box = this.boxOf(x, y, w, h);
    this.#boxes.push([box, x, y, w, h]);
    return box;
  }

  /** Changes the page height (a receipt roll cut after its content); image boxes follow. */
  setHeight(height: number): void {
    this.height = height;
    for (const [box, x, y, w, h] of this.#boxes) box.splice(0, 4, ...this.boxOf(x, y, w, h));
  }

  /** Page fractions, origin top-left, of a rectangle given by its top-left corner. */
  boxOf(x: number, y: number, w: number, h: number): Box {
    return [x / this.width, y / this.height, (x + w) / this.width, (y + h) / this.height];
  }

  content(fontIds: Map<FontName, string>, imageName: (image: number) => string): string {
    const H = this.height;
    const out: string[] = [];
    for (const op of this.ops) {
      switch (op.t) {
        case 'text':
          out.push(
            `BT ${colorOp(op.color, false)} ${fontIds.get(op.font)} ${num(op.size)} Tf 1 0 0 1 ${num(op.x)} ${num(H - op.y)} Tm ${pdfString(op.text)} Tj ET`,
          );
          break;
        case 'line':
          out.push(
            `q ${num(op.width)} w ${colorOp(op.color, true)} ${num(op.x1)} ${num(H - op.y1)} m ${num(op.x2)} ${num(H - op.y2)} l S Q`,
          );
          break;
        case 'rect': {
          const path = `${num(op.x)} ${num(H - op.y - op.h)} ${num(op.w)} ${num(op.h)} re`;
          const paint = op.fill !== null ? (op.stroke > 0 ? 'B' : 'f') : 'S';
          const fill = op.fill !== null ? `${colorOp(op.fill, false)} ` : '';
          out.push(`q ${num(op.stroke)} w ${colorOp(op.color, true)} ${fill}${path} ${paint} Q`);
          break;
        }
        case 'image':
          out.push(
            `q ${num(op.w)} 0 0 ${num(op.h)} ${num(op.x)} ${num(H - op.y - op.h)} cm /${imageName(op.image)} Do Q`,
          );
          break;
      }
    }
    return `${out.join('\n')}\n`;
  }
}

type PdfObject = string | (string | Uint8Array)[];

export class PdfDoc {
  readonly pages: PdfPage[] = [];
  readonly #images: Raster[] = [];

  addPage(width: number, height: number): PdfPage {
    const page = new PdfPage(this, this.pages.length + 1, width, height);
    this.pages.push(page);
    return page;
  }

  addImage(raster: Raster): number {
    if (raster.rgb.length !== raster.width * raster.height * 3) throw new Error('raster size mismatch');
    this.#images.push(raster);
    return this.#images.length - 1;
  }

  save(): Uint8Array {
    // Objects: 1 catalog, 2 pages, 3.. fonts, then images, then per page: page, content.
    const objects: PdfObject[] = ['<< /Type /Catalog /Pages 2 0 R >>', ''];
    const fontIds = new Map<FontName, string>();
    const fontRefs: string[] = [];
    for (const [i, font] of FONT_NAMES.entries()) {
      objects.push(`<< /Type /Font /Subtype /Type1 /BaseFont /${font} /Encoding /WinAnsiEncoding >>`);
      fontIds.set(font, `/F${i + 1}`);
      fontRefs.push(`/F${i + 1} ${objects.length} 0 R`);
    }
    const imageRefs: number[] = [];
    for (const image of this.#images) {
      const data = deflateSync(image.rgb, { level: 6 });
      objects.push([
        `<< /Type /XObject /Subtype /Image /Width ${image.width} /Height ${image.height} ` +
          `/ColorSpace /DeviceRGB /BitsPerComponent 8 /Filter /FlateDecode /Length ${data.length} >>\nstream\n`,
        data,
        '\nendstream',
      ]);
      imageRefs.push(objects.length);
    }
    const kids: number[] = [];
    for (const page of this.pages) {
      const used = new Set<number>();
      const content = page.content(fontIds, (i) => {
        used.add(i);
        return `Im${i}`;
      });
      const xobjects = [...used].map((i) => `/Im${i} ${imageRefs[i]} 0 R`).join(' ');
      objects.push(`<< /Length ${content.length} >>\nstream\n${content}endstream`);
      const contentRef = objects.length;
      objects.push(
        `<< /Type /Page /Parent 2 0 R /MediaBox [0 0 ${num(page.width)} ${num(page.height)}] ` +
          `/Resources << /Font << ${fontRefs.join(' ')} >>${xobjects ? ` /XObject << ${xobjects} >>` : ''} >> ` +
          `/Contents ${contentRef} 0 R >>`,
      );
      kids.push(objects.length);
    }
    objects[1] = `<< /Type /Pages /Kids [${kids.map((k) => `${k} 0 R`).join(' ')}] /Count ${kids.length} >>`;
    return assemble(objects);
  }
}

/** Numbers the objects from 1 (the first is the catalog) and adds the xref table. */
function assemble(objects: PdfObject[]): Uint8Array {
  const chunks: Buffer[] = [];
  const offsets: number[] = [];
  let length = 0;
  const push = (chunk: string | Uint8Array) => {
    const b = typeof chunk === 'string' ? Buffer.from(chunk, 'latin1') : Buffer.from(chunk);
    chunks.push(b);
    length += b.length;
  };
  push('%PDF-1.4\n%\xe2\xe3\xcf\xd3\n');
  for (const [i, body] of objects.entries()) {
    offsets.push(length);
    push(`${i + 1} 0 obj\n`);
    for (const part of typeof body === 'string' ? [body] : body) push(part);
    push('\nendobj\n');
  }
  const xref = length;
  push(`xref\n0 ${objects.length + 1}\n0000000000 65535 f \n`);
  for (const offset of offsets) push(`${String(offset).padStart(10, '0')} 00000 n \n`);
  push(`trailer\n<< /Size ${objects.length + 1} /Root 1 0 R >>\nstartxref\n${xref}\n%%EOF\n`);
  return new Uint8Array(Buffer.concat(chunks));
}
