/**
 * "Photographs" page 1 of a PDF: rendered by PDFium, laid on grey-tinted paper with noise,
 * placed on a darker table, turned by a degree or three and slightly blurred, as a JPEG.
 * Picture boxes are mapped into the photo's frame.
 */
import sharp from 'sharp';
import type { Box } from '../../src/engine/types.ts';
import { openPdf } from '../../src/ingest/pdf/document.ts';
import type { Rng } from './rng.ts';
import type { RegionAnswer } from './types.ts';

export interface Photo {
  jpeg: Uint8Array;
  /** Page-1 box of the PDF → box in the photo (envelope of the turned corners). */
  mapBox(box: Box): Box;
}

export async function photograph(pdf: Uint8Array, rng: Rng): Promise<Photo> {
  const doc = await openPdf(pdf);
  let raw: { width: number; height: number; data: Buffer };
  try {
    const page = doc.render(0, { dpi: 150, maxSide: 2200, format: 'rgb' });
    raw = { width: page.width, height: page.height, data: Buffer.from(page.data) };
  } finally {
    doc.close();
  }
  const { width: W, height: H, data } = raw;
  // Paper: grey-beige, darker towards one corner, with grain.
  const paper = rng.int(212, 236);
  const tint = [paper + 3, paper + 1, paper - 4];
  const fall = 0.06 + rng.next() * 0.08;
  const fx = rng.chance(0.5);
  let s = rng.int(1, 2 ** 30);
  for (let y = 0; y < H; y++) {
    for (let x = 0; x < W; x++) {
      const shade = 1 - fall * ((fx ? x / W : 1 - x / W) * 0.5 + (y / H) * 0.5);
      s = (Math.imul(s, 1103515245) + 12345) >>> 0;
      const noise = ((s >>> 16) % 25) - 12;
      const i = (y * W + x) * 3;
      for (let c = 0; c < 3; c++) {
        const v = (data[i + c]! * tint[c]!) / 255;
        data[i + c] = Math.max(0, Math.min(255, v * shade + noise));
      }
    }
  }
  const margin = Math.round(W * (0.04 + rng.next() * 0.05));
  const table = { r: rng.int(60, 110), g: rng.int(55, 100), b: rng.int(50, 90) };
  const angle = (rng.chance(0.5) ? 1 : -1) * (1 + rng.next() * 2);
  const extended = await sharp(data, { raw: { width: W, height: H, channels: 3 } })
    .extend({ top: margin, bottom: margin, left: margin, right: margin, background: table })
    .raw()
    .toBuffer();
  const EW = W + 2 * margin;
  const EH = H + 2 * margin;
  const jpeg = await sharp(extended, { raw: { width: EW, height: EH, channels: 3 } })
    .rotate(angle, { background: table })
    .blur(0.5 + rng.next() * 0.5)
    .jpeg({ quality: rng.int(72, 88) })
    .toBuffer();
  const meta = await sharp(jpeg).metadata();
  const OW = meta.width;
  const OH = meta.height;
  const rad = (angle * Math.PI) / 180;
  const [cos, sin] = [Math.cos(rad), Math.sin(rad)];
  // sharp turns clockwise for positive angles about the centre and grows the canvas to fit.
  const map = (px: number, py: number): [number, number] => {
    const x = px + margin - EW / 2;
    const y = py + margin - EH / 2;
    return [OW / 2 + x * cos - y * sin, OH / 2 + x * sin + y * cos];
  };
  return {
    jpeg: new Uint8Array(jpeg),
    mapBox: (box) => {
      const corners = [
        map(box[0] * W, box[1] * H),
        map(box[2] * W, box[1] * H),
        map(box[0] * W, box[3] * H),
        map(box[2] * W, box[3] * H),
      ];
      const xs = corners.map((c) => c[0] / OW);
      const ys = corners.map((c) => c[1] / OH);
      return [Math.min(...xs), Math.min(...ys), Math.max(...xs), Math.max(...ys)];
    },
  };
}

/** Regions of page 1 mapped into the photo. */
export function mapRegions(regions: RegionAnswer[], photo: Photo): RegionAnswer[] {
  return regions.map((r) => (r.page === 1 ? { ...r, box: photo.mapBox(r.box) } : r));
}
