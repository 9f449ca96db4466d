/**
 * Layout on top of the PDF writer: a top-down flow over pages with margins and page breaks,
 * label/value fields in several placements, tables with header rows, and running footers.
 */
import { type FontName, type PdfDoc, type PdfPage, textWidth, wrapText } from './pdf-writer.ts';
import type { Rng } from './rng.ts';

export interface Fonts {
  regular: FontName;
  bold: FontName;
}

export const FONT_SETS: Fonts[] = [
  { regular: 'Helvetica', bold: 'Helvetica-Bold' },
  { regular: 'Times-Roman', bold: 'Times-Bold' },
  { regular: 'Courier', bold: 'Courier-Bold' },
];

export interface Margins {
  top: number;
  bottom: number;
  left: number;
  right: number;
}

export interface FlowOptions {
  size: readonly [number, number];
  margins: Margins;
  fonts: Fonts;
  fontSize: number;
  /** Line height as a multiple of the font size. */
  leading?: number;
  /** Called on each new page after the first (a running header); may move `flow.y`. */
  onNewPage?: (flow: Flow) => void;
}

/** A cursor running down the pages; `y` is the top of the free space, in points from the top. */
export class Flow {
  readonly doc: PdfDoc;
  readonly opts: FlowOptions;
  page: PdfPage;
  y: number;

  constructor(doc: PdfDoc, opts: FlowOptions) {
    this.doc = doc;
    this.opts = opts;
    this.page = doc.addPage(opts.size[0], opts.size[1]);
    this.y = opts.margins.top;
  }

  get fonts(): Fonts {
    return this.opts.fonts;
  }
  get left(): number {
    return this.opts.margins.left;
  }
  get right(): number {
    return this.page.width - this.opts.margins.right;
  }
  get width(): number {
    return this.right - this.left;
  }
  get bottom(): number {
    return this.page.height - this.opts.margins.bottom;
  }
  get pageNo(): number {
    return this.page.number;
  }

  newPage(): void {
    this.page = this.doc.addPage(this.opts.size[0], this.opts.size[1]);
    this.y = this.opts.margins.top;
    this.opts.onNewPage?.(this);
  }

  /** Starts a new page unless `h` points still fit. */
  ensure(h: number): void {
    if (this.y + h > this.bottom) this.newPage();
  }

  space(h: number): void {
    this.y += h;
  }

  /** One line of text; returns its page number. */
  line(
    text: string,
    opts: {
      font?: FontName;
      size?: number;
      align?: 'left' | 'right' | 'center';
      x?: number;
      color?: number;
    } = {},
  ): number {
    const size = opts.size ?? this.opts.fontSize;
    const h = size * (this.opts.leading ?? 1.35);
    this.ensure(h);
    const x =
      opts.x ??
      (opts.align === 'right'
        ? this.right
        : opts.align === 'center'
          ? (this.left + this.right) / 2
          : this.left);
    const font = opts.font ?? this.opts.fonts.regular;
    this.page.text(x, this.y + size * 0.85, text, font, fitSize(text, font, size, this.width), {
      align: opts.align,
      color: opts.color,
    });
    this.y += h;
    return this.page.number;
  }

  /** A wrapped paragraph kept on one page; returns its page number. */
  para(
    text: string,
    opts: { font?: FontName; size?: number; indent?: number; after?: number; width?: number } = {},
  ): number {
    const size = opts.size ?? this.opts.fontSize;
    const font = opts.font ?? this.opts.fonts.regular;
    const indent = opts.indent ?? 0;
    const lines = wrapText(text, font, size, (opts.width ?? this.width) - indent);
    const h = size * (this.opts.leading ?? 1.35);
    this.ensure(lines.length * h);
    for (const l of lines) {
      this.page.text(this.left + indent, this.y + size * 0.85, l, font, size);
      this.y += h;
    }
    this.y += opts.after ?? size * 0.6;
    return this.page.number;
  }

  /** Runs `draw` on every page once the page count is known (footers, "Page 2 of 5"). */
  finish(draw: (page: PdfPage, index: number, total: number) => void): void {
    const total = this.doc.pages.length;
    this.doc.pages.forEach((p, i) => {
      draw(p, i, total);
    });
  }
}

// ---------- label / value fields ----------

export type FieldStyle = 'inline' | 'right' | 'below' | 'boxCorner' | 'boxAbove';

export interface FieldOptions {
  fonts: Fonts;
  size: number;
  /** Width of the label cell for `right`; default 45% of the field. */
  labelWidth?: number;
  /** Draw cell borders for `right`. */
  ruled?: boolean;
  upper?: boolean;
}

/** Height a field of this style takes. */
export function fieldHeight(style: FieldStyle, size: number): number {
  switch (style) {
    case 'inline':
      return size * 1.5;
    case 'right':
      return size * 1.75;
    case 'below':
      return size * 2.7;
    case 'boxCorner':
      return size * 2.9;
    case 'boxAbove':
      return size * 3.1;
  }
}

/** Fits text into a width by shrinking the size (not below 60%). */
export function fitSize(text: string, font: FontName, size: number, width: number): number {
  const w = textWidth(text, font, size);
  return w <= width ? size : Math.max(size * 0.6, (size * width) / w);
}

/** Draws a label and its value in one of the placements; returns the height used. */
export function field(
  page: PdfPage,
  x: number,
  y: number,
  w: number,
  label: string,
  value: string,
  style: FieldStyle,
  o: FieldOptions,
): number {
  const { regular, bold } = o.fonts;
  const s = o.size;
  const lab = o.upper ? label.toUpperCase() : label;
  switch (style) {
    case 'inline': {
      const [, end] = page.text(x, y + s, lab, bold, s);
      const vx = end + Math.max(4, s * 0.45);
      page.text(vx, y + s, value, regular, fitSize(value, regular, s, x + w - vx));
      break;
    }
    case 'right': {
      const lw = o.labelWidth ?? w * 0.45;
      const h = fieldHeight(style, s);
      if (o.ruled) {
        page.rect(x, y, lw, h, { stroke: 0.5, fill: 0.93 });
        page.rect(x + lw, y, w - lw, h, { stroke: 0.5 });
      }
      page.text(x + 3, y + s * 1.2, lab, bold, fitSize(lab, bold, s, lw - 6));
      page.text(x + lw + 5, y + s * 1.2, value, regular, fitSize(value, regular, s, w - lw - 8));
      break;
    }
    case 'below': {
      const ls = s * 0.8;
      page.text(x, y + ls, lab, bold, ls, { color: 0.35 });
      page.text(x, y + ls + s * 1.35, value, regular, fitSize(value, regular, s, w));
      break;
    }
    case 'boxCorner': {
      const h = fieldHeight(style, s) - 3;
      page.rect(x, y, w, h, { stroke: 0.6 });
      const ls = Math.max(5.5, s * 0.62);
      page.text(x + 2.5, y + ls + 1.5, lab, regular, ls, { color: 0.3 });
      page.text(x + 6, y + h - s * 0.45, value, regular, fitSize(value, regular, s, w - 10));
      break;
    }
    case 'boxAbove': {
      const ls = s * 0.8;
      page.text(x, y + ls, lab, bold, ls);
      const top = y + ls + 3;
      const h = s * 1.75;
      page.rect(x, top, w, h, { stroke: 0.6 });
      page.text(x + 5, top + h - s * 0.5, value, regular, fitSize(value, regular, s, w - 10));
      break;
    }
  }
  return fieldHeight(style, s);
}

// ---------- tables ----------

export interface Column {
  title: string;
  /** Share of the table width. */
  width: number;
  align?: 'left' | 'right' | 'center';
}

export interface TableStyle {
  fonts: Fonts;
  size: number;
  /** Header row look. */
  header: 'fill' | 'rule' | 'box' | 'plain';
  /** Cell borders on every cell. */
  grid: boolean;
  zebra?: boolean;
  /** Grey of the header fill. */
  headerFill?: number;
}

/**
 * Draws a table at the flow's cursor, breaking pages between rows and repeating the header.
 * Returns the page number of each row.
 */
export function table(
  flow: Flow,
  columns: Column[],
  rows: string[][],
  style: TableStyle,
  x = flow.left,
  width = flow.width,
): number[] {
  const s = style.size;
  const rowH = s * 1.75;
  const total = columns.reduce((a, c) => a + c.width, 0);
  const widths = columns.map((c) => (c.width / total) * width);
  const pad = 4;
  const drawRow = (cells: string[], header: boolean) => {
    const page = flow.page;
    const y = flow.y;
    let cx = x;
    if (header && style.header === 'fill')
      page.rect(x, y, width, rowH, { stroke: 0, fill: style.headerFill ?? 0.85 });
    cells.forEach((cell, i) => {
      const cw = widths[i]!;
      const col = columns[i]!;
      const font = header ? style.fonts.bold : style.fonts.regular;
      const size = fitSize(cell, font, s, cw - 2 * pad);
      const tx = col.align === 'right' ? cx + cw - pad : col.align === 'center' ? cx + cw / 2 : cx + pad;
      page.text(tx, y + rowH * 0.5 + s * 0.33, cell, font, size, { align: col.align });
      if (style.grid || (header && style.header === 'box')) page.rect(cx, y, cw, rowH, { stroke: 0.5 });
      cx += cw;
    });
    if (header && style.header === 'rule') page.line(x, y + rowH, x + width, y + rowH, 0.9);
    flow.y += rowH;
  };
  const header = () =>
    drawRow(
      columns.map((c) => c.title),
      true,
    );
  flow.ensure(rowH * 2);
  header();
  const pages: number[] = [];
  rows.forEach((r, k) => {
    if (flow.y + rowH > flow.bottom) {
      flow.newPage();
      header();
    }
    if (style.zebra && k % 2 === 1) flow.page.rect(x, flow.y, width, rowH, { stroke: 0, fill: 0.95 });
    pages.push(flow.page.number);
    drawRow(r, false);
  });
  if (!style.grid) flow.page.line(x, flow.y, x + width, flow.y, 0.5);
  flow.y += s * 0.8;
  return pages;
}

// ---------- decorations ----------

/** Random table style. */
export function tableStyle(rng: Rng, fonts: Fonts, size: number): TableStyle {
  return {
    fonts,
    size,
    header: rng.pick(['fill', 'rule', 'box', 'plain'] as const),
    grid: rng.chance(0.4),
    zebra: rng.chance(0.3),
    headerFill: rng.pick([0.8, 0.85, 0.9]),
  };
}

/** "Page 2 of 5", "Page 2", "2/5", "- 2 -". */
export function pageLabel(rng: Rng): (i: number, total: number) => string {
  const style = rng.int(0, 3);
  return (i, total) =>
    style === 0
      ? `Page ${i + 1} of ${total}`
      : style === 1
        ? `Page ${i + 1}`
        : style === 2
          ? `${i + 1}/${total}`
          : `- ${i + 1} -`;
}

/** Footer lines on every page: the page label and some small print, centred or split. */
export function footers(
  flow: Flow,
  rng: Rng,
  smallPrint: string[],
  font: FontName = flow.fonts.regular,
): void {
  const label = pageLabel(rng);
  const split = rng.chance(0.5);
  const size = 7.5;
  flow.finish((page, i, total) => {
    const y = page.height - Math.max(22, flow.opts.margins.bottom * 0.45);
    const m = flow.opts.margins;
    if (split) {
      page.text(
        m.left,
        y,
        smallPrint.join('  |  '),
        font,
        fitSize(smallPrint.join('  |  '), font, size, page.width * 0.62),
        {
          color: 0.35,
        },
      );
      page.text(page.width - m.right, y, label(i, total), font, size, { align: 'right', color: 0.35 });
    } else {
      smallPrint.forEach((t, k) => {
        page.text(
          page.width / 2,
          y - (smallPrint.length - k) * size * 1.3,
          t,
          font,
          fitSize(t, font, size, page.width - 60),
          {
            align: 'center',
            color: 0.35,
          },
        );
      });
      page.text(page.width / 2, y, label(i, total), font, size, { align: 'center', color: 0.35 });
    }
  });
}
