import { type Box, PageFrame } from './page-frame.ts';
import { FPDF_PAGEOBJ_FORM, FPDF_PAGEOBJ_IMAGE, type Pdfium } from './pdfium.ts';

/** A picture on the page: where an image object is drawn, as fractions of the displayed page. */
export interface PageImage {
  box: Box;
}

/** Narrower or shorter than this fraction of the displayed page: a rule, bullet or dot. */
const MIN_SIDE = 0.02;
/** Form XObjects nest; PDFium bounds the depth when parsing, this bounds the walk. */
const MAX_FORM_DEPTH = 12;
/** Objects visited per page at most, so a page of a million vector paths stays cheap. */
const MAX_OBJECTS = 200_000;
/** Pictures kept per page at most (the largest), e.g. for scans cut into hundreds of tiles. */
const MAX_IMAGES = 200;

/** a, b, c, d, e, f as in PDF: (x, y) maps to (a x + c y + e, b x + d y + f). */
type Matrix = [number, number, number, number, number, number];

const IDENTITY: Matrix = [1, 0, 0, 1, 0, 0];

/**
 * The image objects of one loaded page, including those inside form XObjects, in painting
 * order. An image object paints the unit square through its matrix; inside a form, the
 * form object's matrix (its /Matrix and the CTM at `Do`) takes form space to the page.
 * Each box is the axis-aligned envelope of that square on the displayed page, clipped to
 * the page (clipping paths are not applied). Tiny images are dropped and exact duplicates
 * (the same picture painted twice in the same place) kept once.
 */
export function readImageObjects(pdfium: Pdfium, page: number): PageImage[] {
  const x = pdfium.x;
  const count = x.FPDFPage_CountObjects(page);
  if (count <= 0) return [];
  let frame: PageFrame | null = null;
  const out: PageImage[] = [];
  const seen = new Set<string>();
  let visited = 0;
  const matrix = pdfium.malloc(24);
  try {
    const readMatrix = (object: number): Matrix | null => {
      if (!x.FPDFPageObj_GetMatrix(object, matrix)) return null;
      const f32 = pdfium.f32;
      const at = matrix >> 2;
      return [f32[at]!, f32[at + 1]!, f32[at + 2]!, f32[at + 3]!, f32[at + 4]!, f32[at + 5]!];
    };
    const walk = (objects: number, get: (i: number) => number, toPage: Matrix, depth: number): void => {
      for (let i = 0; i < objects && visited < MAX_OBJECTS; i++) {
        visited++;
        const object = get(i);
        if (!object) continue;
        const type = x.FPDFPageObj_GetType(object);
        if (type === FPDF_PAGEOBJ_IMAGE) {
          const m = readMatrix(object);
          if (!m) continue;
          frame ??= new PageFrame(pdfium, page);
          const box = unitSquareBox(frame, concat(m, toPage));
          if (!box || box[2] - box[0] < MIN_SIDE || box[3] - box[1] < MIN_SIDE) continue;
          const key = box.map((n) => Math.round(n * 10_000)).join(',');
          if (seen.has(key)) continue;
          seen.add(key);
          out.push({ box });
        } else if (type === FPDF_PAGEOBJ_FORM && depth < MAX_FORM_DEPTH) {
          const inner = x.FPDFFormObj_CountObjects(object);
          if (inner <= 0) continue;
          const m = readMatrix(object);
          if (!m) continue;
          walk(inner, (j) => x.FPDFFormObj_GetObject(object, j), concat(m, toPage), depth + 1);
        }
      }
    };
    walk(count, (i) => x.FPDFPage_GetObject(page, i), IDENTITY, 0);
  } finally {
    pdfium.free(matrix);
  }
  return out.length > MAX_IMAGES ? largest(out, MAX_IMAGES) : out;
}

/** `first` then `second`: the matrix of applying `first` to a point, then `second`. */
function concat(first: Matrix, second: Matrix): Matrix {
  const [a1, b1, c1, d1, e1, f1] = first;
  const [a2, b2, c2, d2, e2, f2] = second;
  return [
    a1 * a2 + b1 * c2,
    a1 * b2 + b1 * d2,
    c1 * a2 + d1 * c2,
    c1 * b2 + d1 * d2,
    e1 * a2 + f1 * c2 + e2,
    e1 * b2 + f1 * d2 + f2,
  ];
}

/** The displayed box of the unit square under `m`: the envelope of its four corners. */
function unitSquareBox(frame: PageFrame, m: Matrix): Box | null {
  const [a, b, c, d, e, f] = m;
  const left = e + Math.min(0, a) + Math.min(0, c);
  const right = e + Math.max(0, a) + Math.max(0, c);
  const bottom = f + Math.min(0, b) + Math.min(0, d);
  const top = f + Math.max(0, b) + Math.max(0, d);
  if (!Number.isFinite(left + right + bottom + top)) return null;
  return frame.toBox(left, bottom, right, top);
}

/** The `n` largest by area, still in painting order. */
function largest(images: PageImage[], n: number): PageImage[] {
  const area = ({ box }: PageImage) => (box[2] - box[0]) * (box[3] - box[1]);
  const keep = new Set(
    images
      .map((image, i) => ({ i, a: area(image) }))
      .sort((p, q) => q.a - p.a || p.i - q.i)
      .slice(0, n)
      .map((p) => p.i),
  );
  return images.filter((_, i) => keep.has(i));
}
