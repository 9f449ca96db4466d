import sharp from 'sharp';

/** 16 rows of 16 left-right comparisons: 256 bits. */
const ROWS = 16;
const COLS = 17;
/** Neighbouring cells closer than this count as equal, so JPEG noise in white margins flips no bits. */
const TOLERANCE = 2;
/** Pictures are shrunk to this (longest side) before their cells are averaged: plenty for 17 x 16. */
const SIDE = 512;

/**
 * A difference hash of an image: 17 x 16 cells of mean grey (aspect ignored, so the page
 * image and its smaller retrieval image agree) and, cell by cell, whether the left
 * neighbour is brighter. Near-identical pictures differ in few bits at any scale. Returns
 * the bits as a string of 0 and 1, the text form of bit(256).
 */
export async function dHash(image: Buffer | Uint8Array): Promise<string> {
  const { data, info } = await sharp(image, { limitInputPixels: 268_402_689 })
    .rotate()
    .flatten({ background: '#ffffff' })
    .greyscale()
    .resize(SIDE, SIDE, { fit: 'inside', withoutEnlargement: true })
    .raw()
    .toBuffer({ resolveWithObject: true });
  return dHashPixels(data, info.width, info.height, info.channels);
}

/**
 * The same hash of raw pixels (1 channel grey or 3 RGB, as a render gives them), without
 * a decode: the page threads hash the retrieval image they have just drawn.
 */
export function dHashPixels(px: Uint8Array, width: number, height: number, channels: number): string {
  // Integer sums of luma x 256 (Rec. 601, as libvips turns sRGB into grey). Each cell's
  // columns are one run of x, summed in a tight loop of its own: this runs for every
  // ingested page, on its page thread.
  const columns = new Uint32Array(COLS);
  const cellEnd = new Uint32Array(COLS);
  for (let x = 0; x < width; x++) {
    const c = Math.min(COLS - 1, Math.floor((x * COLS) / width));
    columns[c]!++;
    cellEnd[c] = x + 1;
  }
  for (let c = 1; c < COLS; c++) cellEnd[c] = Math.max(cellEnd[c]!, cellEnd[c - 1]!);
  const sums = new Float64Array(ROWS * COLS);
  const rows = new Uint32Array(ROWS);
  for (let y = 0; y < height; y++) {
    const row = Math.min(ROWS - 1, Math.floor((y * ROWS) / height));
    rows[row]!++;
    const base = y * width * channels;
    let x = 0;
    for (let c = 0; c < COLS; c++) {
      const end = cellEnd[c]!;
      let sum = 0;
      if (channels >= 3) {
        for (let at = base + x * channels; x < end; x++, at += channels) {
          sum += 77 * px[at]! + 150 * px[at + 1]! + 29 * px[at + 2]!;
        }
      } else {
        for (let at = base + x * channels; x < end; x++, at += channels) sum += px[at]!;
        sum *= 256;
      }
      sums[row * COLS + c]! += sum;
    }
  }
  const mean = (r: number, c: number) => sums[r * COLS + c]! / 256 / Math.max(1, rows[r]! * columns[c]!);
  let bits = '';
  for (let y = 0; y < ROWS; y++) {
    for (let x = 0; x < COLS - 1; x++) bits += mean(y, x) > mean(y, x + 1) + TOLERANCE ? '1' : '0';
  }
  return bits;
}
