import { randomBytes } from 'node:crypto';
import { mkdtempSync } from 'node:fs';
import { copyFile, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { crc32 } from 'node:zlib';
import CFB from 'cfb';
import sharp from 'sharp';
import { afterAll, describe, expect, it } from 'vitest';
import { detectFileType, readCfbRootEntryNames } from '../src/ingest/detect-type.ts';
import { makeOfficeFile } from './fixtures/office.ts';

const dir = mkdtempSync(path.join(os.tmpdir(), 'folio-detect-'));
afterAll(() => rm(dir, { recursive: true, force: true }));

async function fileWith(name: string, content: string | Uint8Array): Promise<string> {
  const file = path.join(dir, name);
  await writeFile(file, content);
  return file;
}

async function copyAs(source: string, name: string): Promise<string> {
  const file = path.join(dir, name);
  await copyFile(source, file);
  return file;
}

const MINIMAL_PDF = `%PDF-1.4
1 0 obj << /Type /Catalog /Pages 2 0 R >> endobj
2 0 obj << /Type /Pages /Kids [3 0 R] /Count 1 >> endobj
3 0 obj << /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] >> endobj
trailer << /Root 1 0 R >>
%%EOF
`;

/** A one-entry ZIP with a stored (uncompressed) text file. */
function plainZip(): Buffer {
  const name = Buffer.from('notes.txt');
  const data = Buffer.from('just some notes\n');
  const local = Buffer.alloc(30);
  local.writeUInt32LE(0x04034b50, 0);
  local.writeUInt16LE(20, 4);
  local.writeUInt32LE(crc32(data), 14);
  local.writeUInt32LE(data.length, 18);
  local.writeUInt32LE(data.length, 22);
  local.writeUInt16LE(name.length, 26);
  const central = Buffer.alloc(46);
  central.writeUInt32LE(0x02014b50, 0);
  central.writeUInt16LE(20, 4);
  central.writeUInt16LE(20, 6);
  central.writeUInt32LE(crc32(data), 16);
  central.writeUInt32LE(data.length, 20);
  central.writeUInt32LE(data.length, 24);
  central.writeUInt16LE(name.length, 28);
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(1, 8);
  end.writeUInt16LE(1, 10);
  end.writeUInt32LE(central.length + name.length, 12);
  end.writeUInt32LE(local.length + name.length + data.length, 16);
  return Buffer.concat([local, name, data, central, name, end]);
}

function compoundFile(streams: Record<string, string>): Buffer {
  const container = CFB.utils.cfb_new();
  for (const [name, content] of Object.entries(streams))
    CFB.utils.cfb_add(container, name, Buffer.from(content));
  return Buffer.from(CFB.write(container, { type: 'buffer' }) as Uint8Array);
}

/**
 * A compound file big enough that its FAT overflows the header into DIFAT sectors, with the
 * directory moved to the last sector so that finding it needs that overflow.
 */
function compoundFileWithLateDirectory(): Buffer {
  const container = CFB.utils.cfb_new();
  CFB.utils.cfb_add(container, 'Data', Buffer.alloc(12 * 1024 * 1024, 7));
  CFB.utils.cfb_add(container, 'WordDocument', Buffer.from('word'));
  const buf = Buffer.from(CFB.write(container, { type: 'buffer' }) as Uint8Array);
  expect(buf.readUInt16LE(0x1e)).toBe(9);
  expect(buf.readUInt32LE(0x48)).toBeGreaterThan(0);
  const fatSlot = (sector: number) => {
    let index = Math.floor(sector / 128);
    let location: number;
    if (index < 109) location = buf.readUInt32LE(0x4c + index * 4);
    else {
      let difat = buf.readUInt32LE(0x44);
      for (index -= 109; index >= 127; index -= 127) difat = buf.readUInt32LE((difat + 1) * 512 + 127 * 4);
      location = buf.readUInt32LE((difat + 1) * 512 + index * 4);
    }
    return (location + 1) * 512 + (sector % 128) * 4;
  };
  const END = 0xfffffffe;
  const dir = buf.readUInt32LE(0x30);
  expect(buf.readUInt32LE(fatSlot(dir))).toBe(END);
  const dataStart = CFB.parse(buf).FileIndex.find((e) => e.name === 'Data')!.start;
  let prev = dataStart;
  let last = buf.readUInt32LE(fatSlot(prev));
  while (buf.readUInt32LE(fatSlot(last)) !== END) [prev, last] = [last, buf.readUInt32LE(fatSlot(last))];
  expect(last).toBeGreaterThan(109 * 128);
  const dirBytes = Buffer.from(buf.subarray((dir + 1) * 512, (dir + 2) * 512));
  buf.copy(buf, (dir + 1) * 512, (last + 1) * 512, (last + 2) * 512);
  dirBytes.copy(buf, (last + 1) * 512);
  buf.writeUInt32LE(dir, fatSlot(prev));
  buf.writeUInt32LE(END, fatSlot(dir));
  buf.writeUInt32LE(END, fatSlot(last));
  buf.writeUInt32LE(last, 0x30);
  return buf;
}

describe('detectFileType accepts', () => {
  it('a PDF', async () => {
    expect(await detectFileType(await fileWith('a.pdf', MINIMAL_PDF))).toEqual({
      kind: 'pdf',
      mime: 'application/pdf',
      ext: 'pdf',
    });
  });

  it('a PDF with junk before its header, as PDF readers do', async () => {
    const junk = `${'X'.repeat(700)}\r\n`;
    expect(await detectFileType(await fileWith('junk.pdf', junk + MINIMAL_PDF))).toMatchObject({
      kind: 'pdf',
    });
  });

  it('but not a PDF header buried past the first KiB', async () => {
    const junk = 'X'.repeat(2000);
    expect(await detectFileType(await fileWith('deep.pdf', junk + MINIMAL_PDF))).toHaveProperty('refused');
  });

  it.each([
    ['jpeg', 'image/jpeg', 'jpg'],
    ['png', 'image/png', 'png'],
    ['webp', 'image/webp', 'webp'],
  ] as const)('a %s image', async (kind, mime, ext) => {
    const image = await sharp({ create: { width: 8, height: 8, channels: 3, background: '#c0ffee' } })
      .toFormat(kind)
      .toBuffer();
    expect(await detectFileType(await fileWith(`image-${kind}.bin`, image))).toEqual({ kind, mime, ext });
  });

  it.each([
    ['docx', 'application/vnd.openxmlformats-officedocument.wordprocessingml.document'],
    ['xlsx', 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet'],
    ['pptx', 'application/vnd.openxmlformats-officedocument.presentationml.presentation'],
    ['doc', 'application/msword'],
  ] as const)('a %s made by LibreOffice', { timeout: 120_000 }, async (kind, mime) => {
    expect(await detectFileType(await makeOfficeFile(kind))).toEqual({ kind, mime, ext: kind });
  });

  it('whatever the name says', { timeout: 120_000 }, async () => {
    const pdfAsDocx = await fileWith('report.docx', MINIMAL_PDF);
    expect(await detectFileType(pdfAsDocx)).toMatchObject({ kind: 'pdf' });
    const docxAsPdf = await copyAs(await makeOfficeFile('docx'), 'scan.pdf');
    expect(await detectFileType(docxAsPdf)).toMatchObject({ kind: 'docx' });
    const xlsxNoName = await copyAs(await makeOfficeFile('xlsx'), 'upload');
    expect(await detectFileType(xlsxNoName)).toMatchObject({ kind: 'xlsx' });
    const docAsTxt = await copyAs(await makeOfficeFile('doc'), 'letter.txt');
    expect(await detectFileType(docAsTxt)).toMatchObject({ kind: 'doc' });
  });

  it('a Word file that embeds a workbook deeper down', async () => {
    const file = await fileWith(
      'embedded.doc',
      compoundFile({ WordDocument: 'word', '1Table': 'table', 'ObjectPool/_1/Workbook': 'sheet' }),
    );
    expect(await detectFileType(file)).toMatchObject({ kind: 'doc' });
  });
});

describe('detectFileType refuses', () => {
  it('legacy .xls with a hint to save as .xlsx', { timeout: 120_000 }, async () => {
    const result = await detectFileType(await copyAs(await makeOfficeFile('xls'), 'book.xlsx'));
    expect(result).toEqual({
      refused: expect.stringMatching(/legacy excel \.xls .*not supported.*save it as \.xlsx/i),
    });
  });

  it('legacy .ppt with a hint to save as .pptx', { timeout: 120_000 }, async () => {
    const result = await detectFileType(await makeOfficeFile('ppt'));
    expect(result).toEqual({
      refused: expect.stringMatching(/legacy powerpoint \.ppt .*not supported.*save it as \.pptx/i),
    });
  });

  it('an old Excel 5 workbook, whose stream is called Book', async () => {
    const result = await detectFileType(await fileWith('old.xls', compoundFile({ Book: 'biff5' })));
    expect(result).toEqual({ refused: expect.stringMatching(/legacy excel \.xls/i) });
  });

  it('a password-protected Office file', async () => {
    const file = await fileWith('secret.docx', compoundFile({ EncryptionInfo: 'x', EncryptedPackage: 'y' }));
    expect(await detectFileType(file)).toEqual({ refused: expect.stringMatching(/password-protected/) });
  });

  it('any other OLE compound file, naming it', async () => {
    const file = await fileWith('mail.msg', compoundFile({ __properties_version1: 'x' }));
    expect(await detectFileType(file)).toEqual({
      refused: expect.stringMatching(/unsupported.*OLE compound file/i),
    });
  });

  it('a damaged OLE compound file', async () => {
    const good = compoundFile({ WordDocument: 'word' });
    const file = await fileWith('broken.doc', good.subarray(0, 600));
    expect(await detectFileType(file)).toEqual({ refused: expect.stringMatching(/damaged/) });
  });

  it('an OpenDocument text, naming it', { timeout: 120_000 }, async () => {
    const result = await detectFileType(await copyAs(await makeOfficeFile('odt'), 'letter.docx'));
    expect(result).toEqual({ refused: expect.stringMatching(/unsupported file type: detected odt/i) });
  });

  it('a plain ZIP archive, naming it', async () => {
    const result = await detectFileType(await fileWith('archive.docx', plainZip()));
    expect(result).toEqual({ refused: expect.stringMatching(/unsupported file type: detected zip/i) });
  });

  it('plain text', async () => {
    const result = await detectFileType(await fileWith('notes.pdf', 'Dear reader,\nthis is not a PDF.\n'));
    expect(result).toEqual({
      refused: expect.stringMatching(/unsupported file type: detected unknown content/i),
    });
  });

  it('random bytes', async () => {
    const result = await detectFileType(await fileWith('noise.png', randomBytes(64 * 1024)));
    expect(result).toHaveProperty('refused');
  });

  it('an empty file', async () => {
    expect(await detectFileType(await fileWith('empty.pdf', ''))).toEqual({ refused: 'The file is empty.' });
  });
});

describe('readCfbRootEntryNames', () => {
  it('follows the FAT past the header into DIFAT sectors', async () => {
    const buf = compoundFileWithLateDirectory();
    const file = await fileWith('late-directory.doc', buf);
    expect(CFB.find(CFB.parse(buf), 'WordDocument')).not.toBeNull();
    expect((await readCfbRootEntryNames(file)).sort()).toEqual(['\u0001Sh33tJ5', 'Data', 'WordDocument']);
    expect(await detectFileType(file)).toMatchObject({ kind: 'doc' });
  });

  it.each(['doc', 'xls', 'ppt'] as const)(
    'agrees with the cfb package on a LibreOffice %s',
    { timeout: 120_000 },
    async (kind) => {
      const file = await makeOfficeFile(kind);
      const parsed = CFB.parse(await readFile(file));
      const rootLevel = parsed.FullPaths.slice(1)
        .filter((p) => /^Root Entry\/[^/]+\/?$/.test(p))
        .map((p) => p.replace(/^Root Entry\//, '').replace(/\/$/, ''));
      expect((await readCfbRootEntryNames(file)).sort()).toEqual(rootLevel.sort());
    },
  );
});
