import { createHash } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import { rm } from 'node:fs/promises';
import { Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';

export class TooLargeError extends Error {}

/**
 * Streams an upload to a local file, hashing and counting on the way, and stops as soon as
 * it passes maxBytes (the partial file is removed). Memory stays flat whatever the size.
 */
export async function spoolToFile(
  source: NodeJS.ReadableStream,
  path: string,
  maxBytes: number,
): Promise<{ size: number; sha256: string }> {
  const hash = createHash('sha256');
  let size = 0;
  const meter = new Transform({
    transform(chunk: Buffer, _enc, done) {
      size += chunk.length;
      if (size > maxBytes) return done(new TooLargeError(`more than ${maxBytes} bytes`));
      hash.update(chunk);
      done(null, chunk);
    },
  });
  try {
    await pipeline(source, meter, createWriteStream(path, { mode: 0o600 }));
  } catch (err) {
    await rm(path, { force: true });
    throw err;
  }
  return { size, sha256: hash.digest('hex') };
}
