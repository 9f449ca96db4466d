import { createReadStream } from 'node:fs';
import { type FileHandle, open } from 'node:fs/promises';
import { createInflateRaw } from 'node:zlib';

/*
 * Read by hand, like the OLE directory in detect-type.ts: no zip reader is among the
 * dependencies, and what is needed here (the end record, the zip64 end record, the central
 * directory entries and each part's local header offset) is a few fixed-layout records,
 * where a zip library would also bring extraction code this check must never run.
 */

/** How far an OOXML file (a zip of XML parts) may expand before LibreOffice is asked to open it. */
export interface ZipBudget {
  /** Uncompressed bytes of all parts together. */
  maxUnzippedBytes: number;
  /** Uncompressed over compressed size of one part, for parts above RATIO_GRACE_BYTES. */
  maxRatio: number;
  /** Parts (zip entries). */
  maxEntries: number;
}

/**
 * Parts smaller than this are not held to the ratio: a few KiB of repetitive styles or an
 * empty sheet compress far beyond any real document's ratio and cost nothing to open.
 */
export const RATIO_GRACE_BYTES = 1024 * 1024;

const EOCD = 0x06054b50;
const EOCD64 = 0x06064b50;
const EOCD64_LOCATOR = 0x07064b50;
const CENTRAL = 0x02014b50;
const LOCAL = 0x04034b50;
const EOCD_SIZE = 22;
const MAX_COMMENT = 0xffff;
const U32_MAX = 0xffffffff;
/** A central directory is ~100 bytes per part: anything near this is hostile or broken. */
const MAX_DIRECTORY_BYTES = 64 * 1024 * 1024;

interface Entry {
  name: string;
  method: number;
  flags: number;
  compressed: number;
  uncompressed: number;
  localOffset: number;
}

/** Why the zip is refused (one sentence for the job's statusText), or null when it is within budget. */
export type ZipVerdict = string | null;

/**
 * Reads the zip's central directory (a few KiB at the end of the file), refuses too many
 * parts, too many bytes unzipped in total or a part expanding beyond the ratio, then
 * inflates each part once, counting and discarding the output, to hold the directory to
 * its word: a part that inflates to more than it declares is refused the moment it does.
 * Nothing is kept in memory beyond the directory and one inflate window.
 */
export async function checkZipBudget(path: string, budget: ZipBudget): Promise<ZipVerdict> {
  const fh = await open(path, 'r');
  let entries: Entry[];
  try {
    const found = await readDirectory(fh, budget);
    if (typeof found === 'string') return found;
    entries = found;
  } finally {
    await fh.close();
  }
  let total = 0;
  for (const e of entries) {
    total += e.uncompressed;
    if (total > budget.maxUnzippedBytes) {
      const all = entries.reduce((sum, x) => sum + x.uncompressed, 0);
      return `it expands to ${mb(all)} when unzipped, more than the ${mb(budget.maxUnzippedBytes)} this server allows`;
    }
    const ratio = e.uncompressed / Math.max(e.compressed, 1);
    if (e.uncompressed > RATIO_GRACE_BYTES && ratio > budget.maxRatio) {
      return `its part ${quoteName(e.name)} expands ${Math.round(ratio)} times (${mb(e.compressed)} to ${mb(e.uncompressed)}), more than the ${budget.maxRatio} times this server allows`;
    }
  }
  for (const e of entries) {
    const verdict = await verifyEntry(path, e);
    if (verdict) return verdict;
  }
  return null;
}

async function readDirectory(fh: FileHandle, budget: ZipBudget): Promise<Entry[] | string> {
  const size = (await fh.stat()).size;
  const tailLength = Math.min(size, EOCD_SIZE + MAX_COMMENT + 20);
  const tail = await readAt(fh, size - tailLength, tailLength);
  let at = -1;
  for (let i = tail.length - EOCD_SIZE; i >= 0; i--) {
    if (tail.readUInt32LE(i) === EOCD && i + EOCD_SIZE + tail.readUInt16LE(i + 20) <= tail.length) {
      at = i;
      break;
    }
  }
  if (at < 0) return 'it is not a readable zip file (no central directory)';
  let count = tail.readUInt16LE(at + 10);
  let dirSize = tail.readUInt32LE(at + 12);
  let dirOffset = tail.readUInt32LE(at + 16);
  if (at >= 20 && tail.readUInt32LE(at - 20) === EOCD64_LOCATOR) {
    const eocd64 = await readAt(fh, Number(tail.readBigUInt64LE(at - 20 + 8)), 56);
    if (eocd64.length < 56 || eocd64.readUInt32LE(0) !== EOCD64) return 'its zip64 directory is damaged';
    count = safeNumber(eocd64.readBigUInt64LE(32));
    dirSize = safeNumber(eocd64.readBigUInt64LE(40));
    dirOffset = safeNumber(eocd64.readBigUInt64LE(48));
  }
  if (count > budget.maxEntries) {
    return `it has ${count} parts, more than the ${budget.maxEntries} this server allows`;
  }
  if (dirSize > MAX_DIRECTORY_BYTES || dirOffset + dirSize > size) return 'its zip directory is damaged';
  const dir = await readAt(fh, dirOffset, dirSize);
  const entries: Entry[] = [];
  let p = 0;
  while (p + 46 <= dir.length && dir.readUInt32LE(p) === CENTRAL) {
    if (entries.length >= budget.maxEntries) {
      return `it has more than the ${budget.maxEntries} parts this server allows`;
    }
    const nameLength = dir.readUInt16LE(p + 28);
    const extraLength = dir.readUInt16LE(p + 30);
    const commentLength = dir.readUInt16LE(p + 32);
    const end = p + 46 + nameLength + extraLength + commentLength;
    if (end > dir.length) return 'its zip directory is damaged';
    const entry: Entry = {
      name: dir.toString('utf8', p + 46, p + 46 + nameLength),
      flags: dir.readUInt16LE(p + 8),
      method: dir.readUInt16LE(p + 10),
      compressed: dir.readUInt32LE(p + 20),
      uncompressed: dir.readUInt32LE(p + 24),
      localOffset: dir.readUInt32LE(p + 42),
    };
    applyZip64(entry, dir.subarray(p + 46 + nameLength, p + 46 + nameLength + extraLength));
    entries.push(entry);
    p = end;
  }
  if (entries.length !== count) return 'its zip directory is damaged';
  return entries;
}

/** Sizes and offsets too big for 32 bits live in the zip64 extra field (id 1), in this order. */
function applyZip64(e: Entry, extra: Buffer): void {
  for (let p = 0; p + 4 <= extra.length; ) {
    const id = extra.readUInt16LE(p);
    const length = extra.readUInt16LE(p + 2);
    if (id === 1) {
      let q = p + 4;
      const next = () => {
        if (q + 8 > p + 4 + length || q + 8 > extra.length) return null;
        const v = safeNumber(extra.readBigUInt64LE(q));
        q += 8;
        return v;
      };
      if (e.uncompressed === U32_MAX) e.uncompressed = next() ?? e.uncompressed;
      if (e.compressed === U32_MAX) e.compressed = next() ?? e.compressed;
      if (e.localOffset === U32_MAX) e.localOffset = next() ?? e.localOffset;
      return;
    }
    p += 4 + length;
  }
}

/**
 * Inflates one part's stored bytes and counts what comes out, stopping as soon as it passes
 * what the directory declared. Stored parts, encrypted parts and methods LibreOffice cannot
 * read anyway are left to it.
 */
async function verifyEntry(path: string, e: Entry): Promise<string | null> {
  if (e.method !== 8 || e.flags & 1 || e.compressed === 0) return null;
  const fh = await open(path, 'r');
  let start: number;
  try {
    const local = await readAt(fh, e.localOffset, 30);
    if (local.length < 30 || local.readUInt32LE(0) !== LOCAL) return 'its zip directory is damaged';
    start = e.localOffset + 30 + local.readUInt16LE(26) + local.readUInt16LE(28);
  } finally {
    await fh.close();
  }
  const lying = `its part ${quoteName(e.name)} inflates to more than the ${mb(e.uncompressed)} its zip directory declares`;
  return new Promise((resolve) => {
    const input = createReadStream(path, { start, end: start + e.compressed - 1 });
    const inflate = createInflateRaw();
    let produced = 0;
    let settled = false;
    const settle = (verdict: string | null) => {
      if (settled) return;
      settled = true;
      input.destroy();
      inflate.destroy();
      resolve(verdict);
    };
    inflate.on('data', (chunk: Buffer) => {
      produced += chunk.length;
      if (produced > e.uncompressed) settle(lying);
    });
    inflate.on('end', () => settle(null));
    // A damaged stream is LibreOffice's to report (it may repair it); only size is ours.
    inflate.on('error', () => settle(null));
    input.on('error', () => settle(null));
    input.pipe(inflate);
  });
}

async function readAt(fh: FileHandle, position: number, length: number): Promise<Buffer> {
  const buf = Buffer.alloc(Math.max(0, length));
  const { bytesRead } = await fh.read(buf, 0, buf.length, Math.max(0, position));
  return buf.subarray(0, bytesRead);
}

function safeNumber(v: bigint): number {
  return v > BigInt(Number.MAX_SAFE_INTEGER) ? Number.MAX_SAFE_INTEGER : Number(v);
}

function mb(bytes: number): string {
  if (bytes < 1024 * 1024) return `${Math.ceil(bytes / 1024)} KB`;
  const v = bytes / (1024 * 1024);
  return `${v >= 10 ? Math.round(v) : Math.round(v * 10) / 10} MB`;
}

/** Part names come from the uploader: printable, short, and never mistaken for a server path. */
function quoteName(name: string): string {
  const clean = [...name]
    .filter((ch) => ch.charCodeAt(0) > 0x1f && ch.charCodeAt(0) !== 0x7f)
    .join('')
    .replace(/^\/+/, '');
  return `"${clean.length > 80 ? `${clean.slice(0, 77)}...` : clean}"`;
}
