import { mkdir, open, rm } from 'node:fs/promises';
import path from 'node:path';
import { randomBase62 } from '../infra/ids.ts';

const NEWLINE = 0x0a;
const READ_BLOCK = 64 * 1024;

/**
 * An append-only file of JSON lines, written once and then read back in order: a table
 * export copies its snapshot here, so the database transaction ends as soon as the rows are
 * read, whatever the speed of the client that downloads the file.
 *
 * The file is unlinked as soon as it is opened (where the system allows it), so a crashed
 * process leaves nothing behind; only the open handle keeps the bytes until close().
 */
export class LineSpool {
  private readonly fh: Awaited<ReturnType<typeof open>>;
  private readonly file: string;
  private unlinked: boolean;
  private size = 0;
  private closed = false;

  private constructor(fh: Awaited<ReturnType<typeof open>>, file: string, unlinked: boolean) {
    this.fh = fh;
    this.file = file;
    this.unlinked = unlinked;
  }

  static async create(dir: string, prefix: string): Promise<LineSpool> {
    await mkdir(dir, { recursive: true });
    const file = path.join(dir, `${prefix}-${randomBase62(16)}`);
    const fh = await open(file, 'w+', 0o600);
    let unlinked = false;
    try {
      await rm(file);
      unlinked = true;
    } catch {
      // Systems that cannot remove an open file: removed on close instead.
    }
    return new LineSpool(fh, file, unlinked);
  }

  /** Bytes written so far. */
  get bytes(): number {
    return this.size;
  }

  /** Appends lines (each must hold no newline: JSON.stringify output never does). */
  async append(lines: readonly string[]): Promise<void> {
    if (lines.length === 0) return;
    // Written line by line into one buffer: joining them first would make one string of the
    // whole page, which V8 keeps in its large-object space until a full collection.
    let size = lines.length;
    for (const line of lines) size += Buffer.byteLength(line);
    const buf = Buffer.allocUnsafe(size);
    let end = 0;
    for (const line of lines) {
      end += buf.write(line, end);
      buf[end++] = NEWLINE;
    }
    let at = 0;
    while (at < buf.length) {
      const { bytesWritten } = await this.fh.write(buf, at, buf.length - at, this.size + at);
      at += bytesWritten;
    }
    this.size += buf.length;
  }

  /** The lines in the order written, read a block at a time. */
  async *lines(): AsyncGenerator<string> {
    const block = Buffer.allocUnsafe(READ_BLOCK);
    let carry: Buffer = Buffer.alloc(0);
    for (let pos = 0; pos < this.size; ) {
      const { bytesRead } = await this.fh.read(block, 0, Math.min(READ_BLOCK, this.size - pos), pos);
      if (bytesRead === 0) break;
      pos += bytesRead;
      let chunk = block.subarray(0, bytesRead);
      let nl = chunk.indexOf(NEWLINE);
      while (nl !== -1) {
        const line = carry.length > 0 ? Buffer.concat([carry, chunk.subarray(0, nl)]) : chunk.subarray(0, nl);
        carry = Buffer.alloc(0);
        yield line.toString('utf8');
        chunk = chunk.subarray(nl + 1);
        nl = chunk.indexOf(NEWLINE);
      }
      // The rest of the block is the start of a line: copied, since the block is reused.
      if (chunk.length > 0) carry = Buffer.concat([carry, chunk]);
    }
    if (carry.length > 0) yield carry.toString('utf8');
  }

  /** Releases the file; safe to call more than once. */
  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    await this.fh.close().catch(() => {});
    if (!this.unlinked) {
      this.unlinked = true;
      await rm(this.file, { force: true }).catch(() => {});
    }
  }
}
