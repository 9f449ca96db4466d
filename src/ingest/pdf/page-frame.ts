import type { Pdfium } from './pdfium.ts';

/** A rectangle as fractions of the displayed page: xmin, ymin, xmax, ymax, origin top-left. */
export type Box = [number, number, number, number];

/**
 * Maps PDF user space (points, origin bottom-left, y up) of one loaded page to fractions of
 * the page as displayed: inside the crop box, after /Rotate, origin top-left. It is the
 * same frame FPDF_RenderPageBitmap draws into, so boxes land on the rendered pixels.
 */
export class PageFrame {
  readonly left: number;
  readonly bottom: number;
  readonly right: number;
  readonly top: number;
  /** Quarter turns clockwise, 0-3. */
  readonly rotation: number;

  constructor(pdfium: Pdfium, page: number) {
    // The bounding box is the crop box clipped to the media box, as PDFium renders it.
    const [l, t, r, b] = pdfium.withScratch(16, (rect) => {
      if (!pdfium.x.FPDF_GetPageBoundingBox(page, rect)) return [0, 0, 0, 0];
      const at = rect >> 2;
      const f32 = pdfium.f32;
      return [f32[at]!, f32[at + 1]!, f32[at + 2]!, f32[at + 3]!];
    });
    this.left = Math.min(l, r);
    this.right = Math.max(l, r);
    this.bottom = Math.min(b, t);
    this.top = Math.max(b, t);
    this.rotation = ((pdfium.x.FPDFPage_GetRotation(page) % 4) + 4) % 4;
  }

  get width(): number {
    return this.right - this.left;
  }

  get height(): number {
    return this.top - this.bottom;
  }

  /**
   * The displayed box of a user-space rectangle. Quarter-turn rotations keep rectangles
   * axis-aligned, so mapping two opposite corners is enough. Null when the rectangle lies
   * wholly outside the visible page; otherwise clamped to it.
   */
  toBox(left: number, bottom: number, right: number, top: number): Box | null {
    const w = this.width || 1;
    const h = this.height || 1;
    // Fractions of the unrotated crop box, y measured down from its top.
    const u0 = (left - this.left) / w;
    const u1 = (right - this.left) / w;
    const v0 = (this.top - top) / h;
    const v1 = (this.top - bottom) / h;
    let box: Box;
    switch (this.rotation) {
      case 1:
        box = [1 - v1, u0, 1 - v0, u1];
        break;
      case 2:
        box = [1 - u1, 1 - v1, 1 - u0, 1 - v0];
        break;
      case 3:
        box = [v0, 1 - u1, v1, 1 - u0];
        break;
      default:
        box = [u0, v0, u1, v1];
    }
    if (box[2] <= 0 || box[3] <= 0 || box[0] >= 1 || box[1] >= 1) return null;
    return [clamp(box[0]), clamp(box[1]), clamp(box[2]), clamp(box[3])];
  }
}

function clamp(n: number): number {
  return Math.round(Math.min(1, Math.max(0, n)) * 1e5) / 1e5;
}
