import { randomBytes } from 'node:crypto';
import { mkdir, readFile, rm } from 'node:fs/promises';
import path from 'node:path';
import sharp from 'sharp';
import { errors } from '../domain/errors.ts';
import { downloadToFile, type FetchOptions, UrlRefusedError } from '../ingest/fetch-url.ts';

/** An image query is a picture of a page or part of one, never a document: 10 MB is plenty. */
export const MAX_IMAGE_BYTES = 10 * 1024 * 1024;
const DOWNLOAD_TIMEOUT_MS = 20_000;
const DATA_URL = /^data:(image\/[a-z0-9.+-]+)?(;[a-z0-9-]+=[^;,]*)*;base64,/i;

/**
 * The bytes behind `image_url`: a base64 `data:` URL, or an http(s) URL fetched through the
 * same guard as upload URLs (public addresses only, checked after DNS resolution and on
 * every redirect, the connection pinned to the checked address). Anything refused, too
 * large or not a picture is a 400.
 */
export async function loadQueryImage(
  imageUrl: string,
  workDir: string,
  guard: Pick<FetchOptions, 'isAllowedAddress' | 'resolve'> = {},
): Promise<Buffer> {
  const bytes = DATA_URL.test(imageUrl) ? fromDataUrl(imageUrl) : await download(imageUrl, workDir, guard);
  try {
    const meta = await sharp(bytes, { limitInputPixels: 100_000_000 }).metadata();
    if (!meta.width || !meta.height) throw new Error('no size');
  } catch {
    throw errors.badRequest('image_url does not hold a readable image (JPEG, PNG, WebP, GIF or TIFF).');
  }
  return bytes;
}

function fromDataUrl(url: string): Buffer {
  const comma = url.indexOf(',');
  const b64 = url.slice(comma + 1).replace(/\s+/g, '');
  // Checked before decoding, so a huge string is refused without allocating its bytes.
  if (Math.floor((b64.length * 3) / 4) > MAX_IMAGE_BYTES) throw tooLarge();
  if (!/^[A-Za-z0-9+/]*={0,2}$/.test(b64))
    throw errors.badRequest('image_url: the data URL is not valid base64.');
  return Buffer.from(b64, 'base64');
}

async function download(
  url: string,
  workDir: string,
  guard: Pick<FetchOptions, 'isAllowedAddress' | 'resolve'>,
): Promise<Buffer> {
  if (!/^https?:\/\//i.test(url)) {
    throw errors.badRequest('image_url must be an http(s) URL or a base64 data URL of an image.');
  }
  await mkdir(workDir, { recursive: true });
  const dest = path.join(workDir, `query-${randomBytes(8).toString('hex')}`);
  try {
    await downloadToFile(url, dest, { maxBytes: MAX_IMAGE_BYTES, timeoutMs: DOWNLOAD_TIMEOUT_MS, ...guard });
    return await readFile(dest);
  } catch (err) {
    if (err instanceof UrlRefusedError) {
      throw errors.badRequest(
        `image_url: ${err.message.replace(/^url /, '').replace(/^The document/, 'The image')}`,
      );
    }
    throw err;
  } finally {
    await rm(dest, { force: true });
  }
}

const tooLarge = () =>
  errors.badRequest(`image_url: the image is larger than ${MAX_IMAGE_BYTES / 1024 / 1024} MB.`);
