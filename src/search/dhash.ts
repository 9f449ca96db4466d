import sharp from 'sharp';

/** 16 rows of 16 left-right comparisons: 256 bits. */
const ROWS = 16;
const COLS = 17;
/** Neighbouring cells closer than this count as equal, so JPEG noise in white margins flips no bits. */
const TOLERANCE = 2;

/**
 * A difference hash of an image: shrink to 17 x 16 grey cells (aspect ignored, so the
 * page image and its smaller retrieval image agree) and record, cell by cell, whether the
 * left neighbour is brighter. Near-identical pictures differ in few bits at any scale.
 * Returns the bits as a string of 0 and 1, the text form of bit(256).
 */
export async function dHash(image: Buffer | Uint8Array): Promise<string> {
  const px = await sharp(image, { limitInputPixels: 268_402_689 })
    .rotate()
    .flatten({ background: '#ffffff' })
    .greyscale()
    .resize(COLS, ROWS, { fit: 'fill', kernel: 'cubic' })
    .raw()
    .toBuffer();
  let bits = '';
  for (let y = 0; y < ROWS; y++) {
    for (let x = 0; x < COLS - 1; x++) {
      bits += px[y * COLS + x] > px[y * COLS + x + 1] + TOLERANCE ? '1' : '0';
    }
  }
  return bits;
}
