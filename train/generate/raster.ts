/**
 * Small RGB pictures drawn pixel by pixel: logos (shapes and initials), signature scribbles,
 * rubber stamps, seals, ID photos, charts and barcodes. Sizes stay small so that drawing
 * and compressing them costs a few milliseconds.
 */
import type { Raster } from './pdf-writer.ts';
import type { Rng } from './rng.ts';

export type Rgb = [number, number, number];

/** 5x7 capitals and digits, one number per row, bit 4 the leftmost pixel. */
const GLYPHS: Record<string, number[]> = {
  A: [14, 17, 17, 17, 31, 17, 17],
  B: [30, 17, 17, 30, 17, 17, 30],
  C: [14, 17, 16, 16, 16, 17, 14],
  D: [28, 18, 17, 17, 17, 18, 28],
  E: [31, 16, 16, 30, 16, 16, 31],
  F: [31, 16, 16, 30, 16, 16, 16],
  G: [14, 17, 16, 23, 17, 17, 15],
  H: [17, 17, 17, 31, 17, 17, 17],
  I: [14, 4, 4, 4, 4, 4, 14],
  J: [7, 2, 2, 2, 2, 18, 12],
  K: [17, 18, 20, 24, 20, 18, 17],
  L: [16, 16, 16, 16, 16, 16, 31],
  M: [17, 27, 21, 21, 17, 17, 17],
  N: [17, 17, 25, 21, 19, 17, 17],
  O: [14, 17, 17, 17, 17, 17, 14],
  P: [30, 17, 17, 30, 16, 16, 16],
  Q: [14, 17, 17, 17, 21, 18, 13],
  R: [30, 17, 17, 30, 20, 18, 17],
  S: [15, 16, 16, 14, 1, 1, 30],
  T: [31, 4, 4, 4, 4, 4, 4],
  U: [17, 17, 17, 17, 17, 17, 14],
  V: [17, 17, 17, 17, 17, 10, 4],
  W: [17, 17, 17, 21, 21, 21, 10],
  X: [17, 17, 10, 4, 10, 17, 17],
  Y: [17, 17, 17, 10, 4, 4, 4],
  Z: [31, 1, 2, 4, 8, 16, 31],
  '0': [14, 17, 19, 21, 25, 17, 14],
  '1': [4, 12, 4, 4, 4, 4, 14],
  '2': [14, 17, 1, 2, 4, 8, 31],
  '3': [31, 2, 4, 2, 1, 17, 14],
  '4': [2, 6, 10, 18, 31, 2, 2],
  '5': [31, 16, 30, 1, 1, 17, 14],
  '6': [6, 8, 16, 30, 17, 17, 14],
  '7': [31, 1, 2, 4, 8, 8, 8],
  '8': [14, 17, 17, 14, 17, 17, 14],
  '9': [14, 17, 17, 15, 1, 2, 12],
  '.': [0, 0, 0, 0, 0, 12, 12],
  '-': [0, 0, 0, 31, 0, 0, 0],
  '&': [12, 18, 20, 8, 21, 18, 13],
  ' ': [0, 0, 0, 0, 0, 0, 0],
};

export class Canvas {
  readonly data: Uint8Array;
  readonly width: number;
  readonly height: number;
  constructor(width: number, height: number, bg: Rgb = [255, 255, 255]) {
    this.width = width;
    this.height = height;
    this.data = new Uint8Array(width * height * 3);
    for (let i = 0; i < width * height; i++) this.data.set(bg, i * 3);
  }

  set(x: number, y: number, c: Rgb, alpha = 1): void {
    x = Math.round(x);
    y = Math.round(y);
    if (x < 0 || y < 0 || x >= this.width || y >= this.height) return;
    const i = (y * this.width + x) * 3;
    const d = this.data;
    if (alpha >= 1) {
      d[i] = c[0];
      d[i + 1] = c[1];
      d[i + 2] = c[2];
    } else {
      d[i] = d[i]! + (c[0] - d[i]!) * alpha;
      d[i + 1] = d[i + 1]! + (c[1] - d[i + 1]!) * alpha;
      d[i + 2] = d[i + 2]! + (c[2] - d[i + 2]!) * alpha;
    }
  }

  fillRect(x: number, y: number, w: number, h: number, c: Rgb): void {
    for (let j = Math.max(0, Math.floor(y)); j < Math.min(this.height, y + h); j++)
      for (let i = Math.max(0, Math.floor(x)); i < Math.min(this.width, x + w); i++) this.set(i, j, c);
  }

  /** Filled ellipse; a ring when `inner` (0-1 of the radii) is given. */
  ellipse(cx: number, cy: number, rx: number, ry: number, c: Rgb, inner = 0): void {
    for (let j = Math.floor(cy - ry); j <= cy + ry; j++)
      for (let i = Math.floor(cx - rx); i <= cx + rx; i++) {
        const d = ((i - cx) / rx) ** 2 + ((j - cy) / ry) ** 2;
        if (d <= 1 && d >= inner * inner) this.set(i, j, c);
      }
  }

  disc(cx: number, cy: number, r: number, c: Rgb, alpha = 1): void {
    for (let j = Math.floor(cy - r); j <= cy + r; j++)
      for (let i = Math.floor(cx - r); i <= cx + r; i++)
        if ((i - cx) ** 2 + (j - cy) ** 2 <= r * r) this.set(i, j, c, alpha);
  }

  /** A pen stroke through the points, `r` pixels thick on each side. */
  stroke(points: [number, number][], r: number, c: Rgb, alpha = 1): void {
    for (let k = 1; k < points.length; k++) {
      const [x0, y0] = points[k - 1]!;
      const [x1, y1] = points[k]!;
      const steps = Math.max(1, Math.ceil(Math.hypot(x1 - x0, y1 - y0) * 1.5));
      for (let s = 0; s <= steps; s++)
        this.disc(x0 + ((x1 - x0) * s) / steps, y0 + ((y1 - y0) * s) / steps, r, c, alpha);
    }
  }

  /** Even-odd scanline fill. */
  polygon(points: [number, number][], c: Rgb): void {
    const ys = points.map((p) => p[1]);
    for (let y = Math.floor(Math.min(...ys)); y <= Math.max(...ys); y++) {
      const xs: number[] = [];
      for (let k = 0; k < points.length; k++) {
        const [x0, y0] = points[k]!;
        const [x1, y1] = points[(k + 1) % points.length]!;
        if (y0 <= y + 0.5 !== y1 <= y + 0.5) xs.push(x0 + ((y + 0.5 - y0) * (x1 - x0)) / (y1 - y0));
      }
      xs.sort((a, b) => a - b);
      for (let k = 0; k + 1 < xs.length; k += 2)
        for (let x = Math.ceil(xs[k]!); x < xs[k + 1]!; x++) this.set(x, y, c);
    }
  }

  /** Block capitals from the 5x7 font, `scale` pixels a dot; returns the width drawn. */
  glyphs(text: string, x: number, y: number, scale: number, c: Rgb): number {
    let cx = x;
    for (const ch of text.toUpperCase()) {
      const rows = GLYPHS[ch] ?? GLYPHS[' ']!;
      rows.forEach((bits, row) => {
        for (let col = 0; col < 5; col++)
          if (bits & (16 >> col)) this.fillRect(cx + col * scale, y + row * scale, scale, scale, c);
      });
      cx += 6 * scale;
    }
    return cx - x - scale;
  }

  toRaster(): Raster {
    return { width: this.width, height: this.height, rgb: this.data };
  }
}

export const glyphWidth = (text: string, scale: number) => text.length * 6 * scale - scale;

/** A saturated colour. */
export function brandColor(rng: Rng): Rgb {
  const palette: Rgb[] = [
    [200, 40, 40],
    [30, 90, 170],
    [20, 130, 90],
    [230, 130, 20],
    [110, 50, 150],
    [0, 130, 150],
    [60, 60, 70],
    [180, 30, 110],
  ];
  return rng.pick(palette);
}

const lighten = (c: Rgb, t: number): Rgb => c.map((v) => Math.round(v + (255 - v) * t)) as Rgb;

/** A company logo: a shape in a brand colour with the initials, on white. */
export function logoRaster(rng: Rng, initials: string): Raster {
  const color = brandColor(rng);
  const accent = lighten(brandColor(rng), 0.2);
  const style = rng.int(0, 3);
  const letters = initials.slice(0, 3).toUpperCase();
  if (style === 0) {
    // Round badge with initials inside.
    const c = new Canvas(96, 96);
    c.ellipse(48, 48, 46, 46, color);
    c.ellipse(48, 48, 38, 38, accent, 0.9);
    const scale = letters.length > 2 ? 4 : 5;
    c.glyphs(letters, 48 - glyphWidth(letters, scale) / 2, 48 - 3.5 * scale, scale, [255, 255, 255]);
    return c.toRaster();
  }
  if (style === 1) {
    // Mark on the left, initials on the right.
    const c = new Canvas(180, 72);
    c.polygon(
      [
        [8, 64],
        [36, 8],
        [64, 64],
      ],
      color,
    );
    c.polygon(
      [
        [30, 64],
        [48, 28],
        [66, 64],
      ],
      accent,
    );
    c.glyphs(letters, 76, 19, 5, color);
    return c.toRaster();
  }
  if (style === 2) {
    // Square tile with stripes.
    const c = new Canvas(84, 84);
    c.fillRect(0, 0, 84, 84, color);
    for (let k = 0; k < 3; k++) c.fillRect(0, 58 + k * 8, 84, 4, accent);
    c.glyphs(letters, 42 - glyphWidth(letters, 5) / 2, 14, 5, [255, 255, 255]);
    return c.toRaster();
  }
  // Wordmark with an underline swoosh.
  const c = new Canvas(200, 64);
  const w = c.glyphs(letters, 10, 8, 6, color);
  const pts: [number, number][] = [];
  for (let x = 6; x <= Math.min(190, w + 40); x += 4) pts.push([x, 58 - Math.sin((x / 190) * Math.PI) * 6]);
  c.stroke(pts, 2.5, accent);
  c.disc(Math.min(190, w + 40) - 4, 16, 7, accent);
  return c.toRaster();
}

/** A handwritten-looking scribble in dark ink: a capital, a run of loops of varying size, a flourish. */
export function signatureRaster(rng: Rng): Raster {
  const W = 300;
  const H = 100;
  const c = new Canvas(W, H);
  const ink: Rgb = rng.pick<Rgb>([
    [20, 30, 90],
    [15, 15, 20],
    [30, 40, 120],
  ]);
  const pen = 1.2 + rng.next() * 0.8;
  const base = 62 + rng.int(-6, 6);
  // A tall opening capital.
  const capX = 18 + rng.int(0, 10);
  const cap: [number, number][] = [];
  for (let t = 0; t <= 1.0001; t += 0.04) {
    const a = t * Math.PI * (1.6 + rng.next() * 0.2);
    cap.push([capX + Math.sin(a) * (10 + rng.next() * 2), base - 44 * t + Math.cos(a) * 6]);
  }
  cap.push([capX + 4, base + 4]);
  c.stroke(cap, pen, ink);
  // The body: loops whose height, width and slant wander.
  const pts: [number, number][] = [];
  let x = capX + 14;
  let phase = 0;
  const end = W - 30 - rng.int(0, 60);
  let amp = 10 + rng.next() * 10;
  while (x < end) {
    if (rng.chance(0.12)) amp = 8 + rng.next() * 26;
    const speed = Math.PI / (5 + rng.next() * 6);
    phase += speed;
    x += 1.1 + rng.next() * 1.4;
    const y = base - (Math.sin(phase) * 0.5 + 0.5) * amp;
    pts.push([x - Math.cos(phase) * 4, y]);
    if (rng.chance(0.015)) {
      c.stroke(pts.splice(0, pts.length - 1), pen, ink);
      x += rng.int(4, 12);
    }
  }
  c.stroke(pts, pen, ink);
  // Flourish underneath or through.
  const tail: [number, number][] = [];
  const dip = 6 + rng.next() * 10;
  const from = capX - 6 + rng.int(0, 30);
  for (let t = 0; t <= 1.0001; t += 0.05)
    tail.push([from + t * (end - from + 12), base + 10 + Math.sin(t * Math.PI) * dip - t * 14]);
  c.stroke(tail, pen * 0.8, ink);
  if (rng.chance(0.5)) c.disc(end + 10, base - 30, pen + 0.6, ink);
  return c.toRaster();
}

/** Rotates a raster about its centre (nearest neighbour), filling corners with `bg`. */
export function rotateRaster(r: Raster, degrees: number, bg: Rgb = [255, 255, 255]): Raster {
  const a = (degrees * Math.PI) / 180;
  const [cos, sin] = [Math.cos(a), Math.sin(a)];
  const out = new Canvas(r.width, r.height, bg);
  const cx = r.width / 2;
  const cy = r.height / 2;
  for (let y = 0; y < r.height; y++)
    for (let x = 0; x < r.width; x++) {
      const sx = Math.round(cos * (x - cx) + sin * (y - cy) + cx);
      const sy = Math.round(-sin * (x - cx) + cos * (y - cy) + cy);
      if (sx < 0 || sy < 0 || sx >= r.width || sy >= r.height) continue;
      const i = (sy * r.width + sx) * 3;
      const o = (y * r.width + x) * 3;
      out.data[o] = r.rgb[i]!;
      out.data[o + 1] = r.rgb[i + 1]!;
      out.data[o + 2] = r.rgb[i + 2]!;
    }
  return out.toRaster();
}

/** A rubber stamp (a word in a box or a ring), faded in places and slightly turned. */
export function stampRaster(rng: Rng, word: string, round = rng.chance(0.5)): Raster {
  const color: Rgb = rng.pick<Rgb>([
    [200, 30, 30],
    [30, 60, 170],
    [20, 120, 60],
  ]);
  const text = word.toUpperCase();
  let c: Canvas;
  if (round) {
    c = new Canvas(160, 160);
    c.ellipse(80, 80, 76, 76, color, 0.9);
    c.ellipse(80, 80, 60, 60, color, 0.94);
    const scale = text.length > 6 ? 2 : 3;
    c.glyphs(text, 80 - glyphWidth(text, scale) / 2, 80 - 3.5 * scale, scale, color);
    for (let k = 0; k < 12; k++) {
      const t = (k / 12) * Math.PI * 2;
      c.disc(80 + Math.cos(t) * 66, 80 + Math.sin(t) * 66, 2, color);
    }
  } else {
    const scale = 4;
    const w = glyphWidth(text, scale) + 40;
    c = new Canvas(w, 76);
    c.fillRect(4, 4, w - 8, 5, color);
    c.fillRect(4, 67, w - 8, 5, color);
    c.fillRect(4, 4, 5, 68, color);
    c.fillRect(w - 9, 4, 5, 68, color);
    c.glyphs(text, 20, 24, scale, color);
  }
  // Uneven ink.
  for (let k = 0; k < (c.width * c.height) / 9; k++)
    c.set(rng.int(0, c.width - 1), rng.int(0, c.height - 1), [255, 255, 255], 0.7);
  return rotateRaster(c.toRaster(), rng.int(-14, 14));
}

/** An embossed-looking seal: a serrated gold or blue disc with rings and initials. */
export function sealRaster(rng: Rng, initials: string): Raster {
  const color: Rgb = rng.pick<Rgb>([
    [190, 150, 40],
    [160, 30, 40],
    [30, 60, 130],
  ]);
  const c = new Canvas(140, 140);
  const pts: [number, number][] = [];
  const teeth = 28;
  for (let k = 0; k < teeth * 2; k++) {
    const t = (k / (teeth * 2)) * Math.PI * 2;
    const r = k % 2 ? 62 : 69;
    pts.push([70 + Math.cos(t) * r, 70 + Math.sin(t) * r]);
  }
  c.polygon(pts, color);
  c.ellipse(70, 70, 54, 54, lighten(color, 0.45));
  c.ellipse(70, 70, 50, 50, color, 0.93);
  const letters = initials.slice(0, 3).toUpperCase();
  c.glyphs(letters, 70 - glyphWidth(letters, 4) / 2, 56, 4, color);
  for (let k = 0; k < 5; k++) c.disc(46 + k * 12, 90, 3, color);
  return c.toRaster();
}

/** A passport-style photo: plain backdrop, head and shoulders. */
export function photoRaster(rng: Rng): Raster {
  const W = 90;
  const H = 115;
  const bg = rng.pick<Rgb>([
    [205, 220, 235],
    [225, 225, 225],
    [235, 230, 215],
  ]);
  const c = new Canvas(W, H, bg);
  for (let y = 0; y < H; y++) for (let x = 0; x < W; x++) c.set(x, y, [255, 255, 255], (y / H) * 0.25);
  const skin = rng.pick<Rgb>([
    [240, 200, 170],
    [200, 150, 110],
    [140, 95, 65],
    [225, 180, 140],
  ]);
  const shirt = brandColor(rng);
  const hair = rng.pick<Rgb>([
    [40, 30, 25],
    [110, 70, 40],
    [200, 170, 110],
    [90, 90, 90],
  ]);
  c.ellipse(45, 118, 42, 34, shirt);
  c.fillRect(38, 70, 14, 16, skin);
  c.ellipse(45, 48, 22, 26, hair);
  c.ellipse(45, 54, 19, 24, skin);
  c.disc(38, 50, 2, [40, 40, 40]);
  c.disc(52, 50, 2, [40, 40, 40]);
  c.stroke(
    [
      [39, 64],
      [45, 67],
      [51, 64],
    ],
    1,
    [150, 70, 70],
  );
  return c.toRaster();
}

export type ChartKind = 'bar' | 'line' | 'pie';

/** A chart without text: bars, a line or a pie, with axes and gridlines. */
export function chartRaster(rng: Rng, kind: ChartKind, values: number[]): Raster {
  const W = 420;
  const H = 240;
  const c = new Canvas(W, H);
  const colors = [brandColor(rng), brandColor(rng), [120, 120, 120] as Rgb];
  if (kind === 'pie') {
    const total = values.reduce((a, b) => a + b, 0) || 1;
    let start = 0;
    values.forEach((v, k) => {
      const end = start + (v / total) * Math.PI * 2;
      const col = lighten(colors[k % 2]!, (k % 4) * 0.2);
      for (let y = 20; y < 220; y++)
        for (let x = 110; x < 310; x++) {
          const dx = x - 210;
          const dy = y - 120;
          if (dx * dx + dy * dy > 98 * 98) continue;
          let t = Math.atan2(dy, dx);
          if (t < 0) t += Math.PI * 2;
          if (t >= start && t < end) c.set(x, y, col);
        }
      start = end;
    });
    return c.toRaster();
  }
  const max = Math.max(...values, 1);
  const left = 40;
  const bottom = 210;
  const top = 20;
  for (let k = 0; k <= 4; k++)
    c.fillRect(left, bottom - ((bottom - top) * k) / 4, W - left - 10, 1, [220, 220, 220]);
  c.fillRect(left, top, 2, bottom - top, [60, 60, 60]);
  c.fillRect(left, bottom, W - left - 10, 2, [60, 60, 60]);
  const n = values.length;
  const slot = (W - left - 20) / n;
  if (kind === 'bar') {
    values.forEach((v, k) => {
      const h = ((bottom - top) * v) / max;
      c.fillRect(left + 8 + k * slot + slot * 0.15, bottom - h, slot * 0.7, h, colors[0]!);
    });
  } else {
    const pts = values.map((v, k): [number, number] => [
      left + 8 + k * slot + slot / 2,
      bottom - ((bottom - top) * v) / max,
    ]);
    c.stroke(pts, 1.6, colors[0]!);
    for (const [x, y] of pts) c.disc(x, y, 3.5, colors[1]!);
  }
  return c.toRaster();
}

/** A 1-D barcode: random bar widths. */
export function barcodeRaster(rng: Rng): Raster {
  const W = 220;
  const H = 60;
  const c = new Canvas(W, H);
  let x = 8;
  while (x < W - 12) {
    const w = rng.int(1, 4);
    c.fillRect(x, 4, w, H - 8, [0, 0, 0]);
    x += w + rng.int(1, 4);
  }
  return c.toRaster();
}
