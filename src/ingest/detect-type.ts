import { type FileHandle, open } from 'node:fs/promises';
import { fileTypeFromFile } from 'file-type';

export type DetectedKind = 'pdf' | 'doc' | 'docx' | 'pptx' | 'xlsx' | 'jpeg' | 'png' | 'webp';

export type Detection = { kind: DetectedKind; mime: string; ext: string } | { refused: string };

const ACCEPTED: Record<string, { kind: DetectedKind; mime: string }> = {
  pdf: { kind: 'pdf', mime: 'application/pdf' },
  docx: { kind: 'docx', mime: 'application/vnd.openxmlformats-officedocument.wordprocessingml.document' },
  pptx: { kind: 'pptx', mime: 'application/vnd.openxmlformats-officedocument.presentationml.presentation' },
  xlsx: { kind: 'xlsx', mime: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet' },
  jpg: { kind: 'jpeg', mime: 'image/jpeg' },
  png: { kind: 'png', mime: 'image/png' },
  webp: { kind: 'webp', mime: 'image/webp' },
};

const SUPPORTED = 'Supported: PDF, Word (.docx, .doc), PowerPoint (.pptx), Excel (.xlsx), JPEG, PNG, WebP.';

/** PDF readers accept up to 1 KiB of junk before the header, so we do too. */
const PDF_HEADER_WINDOW = 1024;

/** Sniffs the bytes; the file name and any client-sent type are never trusted. */
export async function detectFileType(path: string): Promise<Detection> {
  const found = await fileTypeFromFile(path);
  if (found?.ext === 'cfb') return detectOleDocument(path);
  const accepted = found && ACCEPTED[found.ext];
  if (accepted) return { ...accepted, ext: found.ext };
  if (!found) {
    const head = await readHead(path, PDF_HEADER_WINDOW + 5);
    if (head.length === 0) return { refused: 'The file is empty.' };
    if (head.includes('%PDF-') || looksLikeHeaderlessPdf(head)) return { ...ACCEPTED.pdf, ext: 'pdf' };
  }
  const what = found ? `${found.ext} (${found.mime})` : 'unknown content';
  return { refused: `Unsupported file type: detected ${what}. ${SUPPORTED}` };
}

/**
 * A PDF whose `%PDF-` line is missing or mangled still starts with a comment and numbered
 * objects; readers (and our repair step) open it, so it is not refused as "unknown".
 */
function looksLikeHeaderlessPdf(head: Buffer): boolean {
  const text = head.toString('latin1');
  return (
    text.startsWith('%') &&
    /(^|[\r\n])\d+ \d+ obj\b/.test(text) &&
    /\/Type\s*\/(Catalog|Pages|Page)\b/.test(text)
  );
}

async function readHead(path: string, length: number): Promise<Buffer> {
  const fh = await open(path, 'r');
  try {
    const buf = Buffer.alloc(length);
    const { bytesRead } = await fh.read(buf, 0, length, 0);
    return buf.subarray(0, bytesRead);
  } finally {
    await fh.close();
  }
}

async function detectOleDocument(path: string): Promise<Detection> {
  let names: string[];
  try {
    names = await readCfbRootEntryNames(path);
  } catch (err) {
    return {
      refused: `Unsupported file type: a damaged Microsoft Office (OLE) file (${(err as Error).message}).`,
    };
  }
  // Only root-level streams count: a Word file can embed a workbook deeper down.
  const has = (name: string) => names.includes(name);
  if (has('EncryptedPackage')) {
    return {
      refused: 'This Office document is password-protected. Remove the password and upload it again.',
    };
  }
  if (has('WordDocument')) return { kind: 'doc', mime: 'application/msword', ext: 'doc' };
  if (has('PowerPoint Document')) {
    return {
      refused: 'Legacy PowerPoint .ppt files are not supported. Open it in PowerPoint and save it as .pptx.',
    };
  }
  if (has('Workbook') || has('Book')) {
    return { refused: 'Legacy Excel .xls files are not supported. Open it in Excel and save it as .xlsx.' };
  }
  return {
    refused: `Unsupported file type: detected an OLE compound file (application/x-cfb). ${SUPPORTED}`,
  };
}

const CFB_SIGNATURE = Buffer.from([0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1]);
const END_OF_CHAIN = 0xfffffffe;
const MAX_SECTOR = 0xfffffffa;
const NO_STREAM = 0xffffffff;
const DIR_ENTRY_SIZE = 128;
/** Real directories are a few KiB; anything bigger is hostile or broken. */
const MAX_DIRECTORY_BYTES = 4 * 1024 * 1024;

/**
 * Names of the streams and storages directly under the root of an OLE compound file.
 * Reads only the header, the FAT sectors the directory chain runs through and the directory
 * itself, so a 300 MB .doc costs a few KiB of I/O (the `cfb` package would load it whole).
 */
export async function readCfbRootEntryNames(path: string): Promise<string[]> {
  const fh = await open(path, 'r');
  try {
    const reader = await CfbReader.open(fh);
    return await reader.rootEntryNames();
  } finally {
    await fh.close();
  }
}

class CfbReader {
  private readonly fh: FileHandle;
  private readonly header: Buffer;
  private readonly sectorSize: number;
  private readonly fileSize: number;
  private difat: number[] | null = null;
  private readonly fatSectors = new Map<number, Buffer>();

  private constructor(fh: FileHandle, header: Buffer, fileSize: number) {
    this.fh = fh;
    this.header = header;
    this.fileSize = fileSize;
    this.sectorSize = 1 << header.readUInt16LE(0x1e);
  }

  static async open(fh: FileHandle): Promise<CfbReader> {
    const header = Buffer.alloc(512);
    const { bytesRead } = await fh.read(header, 0, 512, 0);
    if (bytesRead < 512 || !header.subarray(0, 8).equals(CFB_SIGNATURE)) throw new Error('bad header');
    const shift = header.readUInt16LE(0x1e);
    if (shift !== 9 && shift !== 12) throw new Error(`bad sector size 2^${shift}`);
    return new CfbReader(fh, header, (await fh.stat()).size);
  }

  async rootEntryNames(): Promise<string[]> {
    const dir = await this.readChain(this.header.readUInt32LE(0x30), MAX_DIRECTORY_BYTES);
    const count = Math.floor(dir.length / DIR_ENTRY_SIZE);
    const entry = (id: number) => dir.subarray(id * DIR_ENTRY_SIZE, (id + 1) * DIR_ENTRY_SIZE);
    if (count === 0 || entry(0)[0x42] !== 5) throw new Error('no root entry');
    const names: string[] = [];
    const seen = new Set<number>();
    // The children of a storage form a red-black tree linked through left/right siblings.
    const pending = [entry(0).readUInt32LE(0x4c)];
    while (pending.length > 0) {
      const id = pending.pop()!;
      if (id === NO_STREAM) continue;
      if (id >= count || seen.has(id)) throw new Error('corrupt directory tree');
      seen.add(id);
      const e = entry(id);
      const nameBytes = Math.min(e.readUInt16LE(0x40), 64);
      names.push(
        e
          .subarray(0, Math.max(nameBytes - 2, 0))
          .toString('utf16le')
          .replace(/\0+$/, ''),
      );
      pending.push(e.readUInt32LE(0x44), e.readUInt32LE(0x48));
    }
    return names;
  }

  private async readChain(start: number, maxBytes: number): Promise<Buffer> {
    const parts: Buffer[] = [];
    const seen = new Set<number>();
    for (let sector = start; sector !== END_OF_CHAIN; sector = await this.nextSector(sector)) {
      if (sector > MAX_SECTOR || seen.has(sector)) throw new Error('corrupt sector chain');
      if ((seen.size + 1) * this.sectorSize > maxBytes) throw new Error('directory too large');
      seen.add(sector);
      parts.push(await this.readSector(sector));
    }
    return Buffer.concat(parts);
  }

  private async readSector(sector: number): Promise<Buffer> {
    const offset = (sector + 1) * this.sectorSize;
    if (offset + this.sectorSize > this.fileSize) throw new Error('sector past end of file');
    const buf = Buffer.alloc(this.sectorSize);
    await this.fh.read(buf, 0, this.sectorSize, offset);
    return buf;
  }

  private async nextSector(sector: number): Promise<number> {
    const perSector = this.sectorSize / 4;
    const fatIndex = Math.floor(sector / perSector);
    let fat = this.fatSectors.get(fatIndex);
    if (!fat) {
      const location = (await this.loadDifat())[fatIndex];
      if (location === undefined || location > MAX_SECTOR) throw new Error('sector outside the FAT');
      fat = await this.readSector(location);
      this.fatSectors.set(fatIndex, fat);
    }
    return fat.readUInt32LE((sector % perSector) * 4);
  }

  /** Locations of the FAT sectors: 109 in the header, the rest in a chain of DIFAT sectors. */
  private async loadDifat(): Promise<number[]> {
    if (this.difat) return this.difat;
    const fatCount = this.header.readUInt32LE(0x2c);
    if (fatCount * this.sectorSize > this.fileSize) throw new Error('bad FAT size');
    const difat: number[] = [];
    for (let i = 0; i < 109 && difat.length < fatCount; i++)
      difat.push(this.header.readUInt32LE(0x4c + i * 4));
    const perSector = this.sectorSize / 4 - 1;
    const seen = new Set<number>();
    let next = this.header.readUInt32LE(0x44);
    while (difat.length < fatCount && next <= MAX_SECTOR) {
      if (seen.has(next)) throw new Error('corrupt DIFAT chain');
      seen.add(next);
      const sector = await this.readSector(next);
      for (let i = 0; i < perSector && difat.length < fatCount; i++) difat.push(sector.readUInt32LE(i * 4));
      next = sector.readUInt32LE(perSector * 4);
    }
    this.difat = difat;
    return difat;
  }
}
