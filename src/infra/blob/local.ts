import { randomBytes } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import { copyFile, mkdir, open, readdir, readFile, rename, rm, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';
import { PROFILING, processStages } from '../../ingest/profile.ts';
import { BlobNotFoundError, type BlobStore, checkKey } from './store.ts';

const TMP_SUFFIX = '.tmp-';

/**
 * Blobs as files under one directory. Writes go to a temporary file beside the target and
 * are renamed into place after fsync, so a reader never sees half a blob.
 */
export class LocalBlobStore implements BlobStore {
  readonly kind = 'local' as const;
  readonly root: string;

  constructor(root: string) {
    this.root = path.resolve(root);
  }

  private file(key: string): string {
    return path.join(this.root, checkKey(key));
  }

  /**
   * `write` fills `tmp`; `synced` says it also flushed it to disk. A write that can be
   * repeated (`stream` false) makes the folder only when it finds it missing: a file's pages
   * share one folder, so most page writes need no mkdir at all.
   */
  private async atomically(
    key: string,
    write: (tmp: string) => Promise<void>,
    opts: { synced?: boolean; stream?: boolean } = {},
  ): Promise<void> {
    const target = this.file(key);
    const tmp = `${target}${TMP_SUFFIX}${randomBytes(6).toString('hex')}`;
    try {
      if (opts.stream) await mkdir(path.dirname(target), { recursive: true });
      try {
        await write(tmp);
      } catch (err) {
        if (opts.stream || (err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
        await mkdir(path.dirname(target), { recursive: true });
        await write(tmp);
      }
      if (!opts.synced) {
        const t = PROFILING ? performance.now() : 0;
        const fh = await open(tmp, 'r+');
        await fh.sync();
        await fh.close();
        if (PROFILING) processStages.add('fsync', performance.now() - t);
      }
      await rename(tmp, target);
    } catch (err) {
      await rm(tmp, { force: true });
      throw err;
    }
  }

  put(key: string, body: Buffer | Uint8Array | NodeJS.ReadableStream): Promise<void> {
    if (body instanceof Uint8Array) {
      // One open, write, fsync and close (writeFile's flush), without a stream around it.
      return this.atomically(key, (tmp) => writeSynced(tmp, body), { synced: true });
    }
    return this.atomically(key, (tmp) => pipeline(body, createWriteStream(tmp, { mode: 0o600 })), {
      stream: true,
    });
  }

  putFile(key: string, filePath: string): Promise<void> {
    return this.atomically(key, (tmp) => copyFile(filePath, tmp));
  }

  async getStream(key: string): Promise<NodeJS.ReadableStream> {
    const file = this.file(key);
    // Open first so a missing key fails here, not midway through a response.
    const fh = await open(file, 'r').catch((err) => {
      throw notFound(err, key);
    });
    return fh.createReadStream({ autoClose: true });
  }

  async getBuffer(key: string): Promise<Buffer> {
    return readFile(this.file(key)).catch((err) => {
      throw notFound(err, key);
    });
  }

  async getToFile(key: string, filePath: string): Promise<void> {
    await copyFile(this.file(key), filePath).catch((err) => {
      throw notFound(err, key);
    });
  }

  async stat(key: string): Promise<{ size: number } | null> {
    try {
      const s = await stat(this.file(key));
      return s.isFile() ? { size: s.size } : null;
    } catch {
      return null;
    }
  }

  async delete(key: string): Promise<void> {
    await rm(this.file(key), { force: true });
  }

  async deletePrefix(prefix: string): Promise<number> {
    checkKey(prefix, { prefix: true });
    if (!prefix.endsWith('/')) throw new Error('deletePrefix needs a folder prefix ending in /');
    const dir = path.join(this.root, prefix);
    const entries = await readdir(dir, { recursive: true, withFileTypes: true }).catch(() => []);
    const count = entries.filter((e) => e.isFile() && !e.name.includes(TMP_SUFFIX)).length;
    await rm(dir, { recursive: true, force: true });
    return count;
  }
}

async function writeSynced(tmp: string, body: Uint8Array): Promise<void> {
  if (!PROFILING) return writeFile(tmp, body, { mode: 0o600, flush: true });
  // Timed apart from the write, as the profile's fsync stage.
  const fh = await open(tmp, 'w', 0o600);
  try {
    await fh.writeFile(body);
    const t = performance.now();
    await fh.sync();
    processStages.add('fsync', performance.now() - t);
  } finally {
    await fh.close();
  }
}

function notFound(err: unknown, key: string): Error {
  return (err as NodeJS.ErrnoException).code === 'ENOENT'
    ? new BlobNotFoundError(`No blob ${key}`)
    : (err as Error);
}
