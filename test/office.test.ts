import { execFile } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { chmod, copyFile, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';
import { convertToPdf, isOfficeAvailable, OfficeConversionError } from '../src/ingest/office.ts';
import { DEFAULT_FIXTURE_TEXT, makeOfficeFile } from './fixtures/office.ts';

const run = promisify(execFile);
const made: string[] = [];
const tmpDir = (prefix = 'folio-office-') => {
  const dir = mkdtempSync(path.join(os.tmpdir(), prefix));
  made.push(dir);
  return dir;
};
afterAll(async () => {
  await Promise.all(made.map((dir) => rm(dir, { recursive: true, force: true })));
});

async function pdfText(file: string): Promise<string> {
  return (await run('pdftotext', ['-layout', file, '-'])).stdout;
}

async function pdfPages(file: string): Promise<number> {
  const { stdout } = await run('pdfinfo', [file]);
  return Number(/^Pages:\s+(\d+)/m.exec(stdout)![1]);
}

/** A stand-in converter: a shell script that gets soffice's arguments. */
async function fakeConverter(body: string): Promise<{ binary: string; dir: string }> {
  const dir = tmpDir('folio-fake-soffice-');
  const binary = path.join(dir, 'soffice');
  // soffice writes <input name>.pdf next to it; our inputs are always .docx.
  const prelude = 'for a; do last="$a"; done\npdf="$(dirname "$last")/$(basename "$last" .docx).pdf"\n';
  await writeFile(binary, `#!/bin/sh\n${prelude}${body}\n`);
  await chmod(binary, 0o755);
  return { binary, dir };
}

/** Live members of a process group; zombies are dead and only wait for init to reap them. */
async function liveGroupMembers(pgid: number): Promise<number[]> {
  const live: number[] = [];
  for (const entry of await readdir('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    const stat = await readFile(`/proc/${entry}/stat`, 'utf8').catch(() => '');
    // Fields after the parenthesised command name: state ppid pgrp ...
    const [state, , pgrp] = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    if (Number(pgrp) === pgid && state !== 'Z' && state !== 'X') live.push(Number(entry));
  }
  return live;
}

async function expectGroupGone(pgid: number): Promise<void> {
  const deadline = Date.now() + 2_000;
  while ((await liveGroupMembers(pgid)).length > 0 && Date.now() < deadline) {
    await new Promise((r) => setTimeout(r, 50));
  }
  expect(await liveGroupMembers(pgid)).toEqual([]);
}

describe('convertToPdf with LibreOffice', () => {
  it('finds LibreOffice', async () => {
    expect(await isOfficeAvailable()).toBe(true);
  });

  for (const kind of ['docx', 'xlsx', 'pptx', 'doc'] as const) {
    it(`converts ${kind} to a PDF holding its text`, { timeout: 120_000 }, async () => {
      const input = await makeOfficeFile(kind);
      const outDir = tmpDir();
      const pdf = await convertToPdf(input, { outDir, profileDir: tmpDir('folio-lo-profile-') });
      expect(path.dirname(pdf)).toBe(outDir);
      expect((await readFile(pdf)).subarray(0, 5).toString('latin1')).toBe('%PDF-');
      const text = await pdfText(pdf);
      for (const line of DEFAULT_FIXTURE_TEXT) expect(text).toContain(line);
      // The temporary input copy is gone; only the PDF is left.
      expect(await readdir(outDir)).toEqual([path.basename(pdf)]);
    });
  }

  it('keeps every page of a multi-page document', { timeout: 120_000 }, async () => {
    const input = await makeOfficeFile('docx', { pages: 3 });
    const pdf = await convertToPdf(input, { outDir: tmpDir(), profileDir: tmpDir('folio-lo-profile-') });
    expect(await pdfPages(pdf)).toBeGreaterThanOrEqual(3);
    const text = await pdfText(pdf);
    expect(text).toContain('Page 2');
    expect(text).toContain('Page 3');
  });

  it('copes with spaces and unicode in the input name and the directories', {
    timeout: 120_000,
  }, async () => {
    const dir = tmpDir('folio office ü ');
    const input = path.join(dir, '-Quartals bericht ü 2024 (final).docx');
    await copyFile(await makeOfficeFile('docx'), input);
    const pdf = await convertToPdf(input, {
      outDir: path.join(dir, 'out dir é'),
      profileDir: path.join(dir, 'profile ß'),
    });
    expect(await pdfText(pdf)).toContain(DEFAULT_FIXTURE_TEXT[0]);
  });

  it('converts a file with no extension, as the ingest job stores it', { timeout: 120_000 }, async () => {
    const input = path.join(tmpDir(), 'original');
    await copyFile(await makeOfficeFile('xlsx'), input);
    const pdf = await convertToPdf(input, { outDir: tmpDir(), profileDir: tmpDir('folio-lo-profile-') });
    expect(await pdfText(pdf)).toContain(DEFAULT_FIXTURE_TEXT[1]);
  });

  it('runs two workers with their own profiles at the same time', { timeout: 120_000 }, async () => {
    const [docx, pptx] = await Promise.all([makeOfficeFile('docx'), makeOfficeFile('pptx')]);
    const outDir = tmpDir();
    const pdfs = await Promise.all([
      convertToPdf(docx, { outDir, profileDir: tmpDir('folio-lo-profile-') }),
      convertToPdf(pptx, { outDir, profileDir: tmpDir('folio-lo-profile-') }),
    ]);
    expect(new Set(pdfs).size).toBe(2);
    for (const pdf of pdfs) expect(await pdfText(pdf)).toContain(DEFAULT_FIXTURE_TEXT[0]);
  });
});

describe('convertToPdf failure handling', () => {
  const input = async () => {
    const file = path.join(tmpDir(), 'in.docx');
    await writeFile(file, 'irrelevant to a fake converter');
    return file;
  };

  it('kills the whole process group of a hung converter at the timeout', async () => {
    // The script and its background child both hang; the group id is the script's pid.
    const fake = await fakeConverter(`sleep 300 &\necho $$ > "$(dirname "$0")/pid"\nsleep 300\n`);
    const started = Date.now();
    const conversion = convertToPdf(await input(), {
      outDir: tmpDir(),
      profileDir: tmpDir(),
      timeoutMs: 1_000,
      binary: fake.binary,
    }).catch((e: unknown) => e);
    const pidFile = path.join(fake.dir, 'pid');
    while (!(await readFile(pidFile, 'utf8').catch(() => '')).endsWith('\n')) {
      await new Promise((r) => setTimeout(r, 20));
    }
    const pgid = Number(await readFile(pidFile, 'utf8'));
    expect((await liveGroupMembers(pgid)).length).toBeGreaterThanOrEqual(3);
    const err = await conversion;
    expect(err).toBeInstanceOf(OfficeConversionError);
    expect((err as Error).message).toMatch(/did not finish within 1000 ms and was killed/);
    expect(Date.now() - started).toBeLessThan(5_000);
    await expectGroupGone(pgid);
  });

  it('stops the converter when the caller aborts', async () => {
    const fake = await fakeConverter(`echo $$ > "$(dirname "$0")/pid"\nsleep 300\n`);
    const controller = new AbortController();
    setTimeout(() => controller.abort(new Error('job cancelled')), 300);
    await expect(
      convertToPdf(await input(), {
        outDir: tmpDir(),
        profileDir: tmpDir(),
        signal: controller.signal,
        binary: fake.binary,
      }),
    ).rejects.toThrow('job cancelled');
    const pgid = Number(await readFile(path.join(fake.dir, 'pid'), 'utf8'));
    await expectGroupGone(pgid);
  });

  it('gives up a queued conversion as soon as the caller aborts', async () => {
    const fake = await fakeConverter('sleep 2');
    const profileDir = tmpDir();
    const first = convertToPdf(await input(), { outDir: tmpDir(), profileDir, binary: fake.binary }).catch(
      (e: unknown) => e,
    );
    const controller = new AbortController();
    const queued = convertToPdf(await input(), {
      outDir: tmpDir(),
      profileDir,
      signal: controller.signal,
      binary: fake.binary,
    });
    const started = Date.now();
    setTimeout(() => controller.abort(new Error('job cancelled')), 100);
    await expect(queued).rejects.toThrow('job cancelled');
    expect(Date.now() - started).toBeLessThan(1_000);
    expect(await first).toBeInstanceOf(OfficeConversionError);
  });

  it('rejects a converter that exits 0 without writing a PDF', async () => {
    const fake = await fakeConverter('echo "Error: source file could not be loaded" >&2\nexit 0');
    const outDir = tmpDir();
    const err = await convertToPdf(await input(), {
      outDir,
      profileDir: tmpDir(),
      binary: fake.binary,
    }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(OfficeConversionError);
    expect((err as Error).message).toMatch(/produced no PDF for in\.docx \(it exited with code 0\)/);
    expect((err as Error).message).toContain('source file could not be loaded');
    expect(await readdir(outDir)).toEqual([]);
  });

  it('rejects an output that is not a PDF and keeps only the tail of a noisy stderr', async () => {
    const fake = await fakeConverter(
      'i=0; while [ $i -lt 200 ]; do echo "noise line $i of a very chatty converter" >&2; i=$((i+1)); done\n' +
        'echo "not a pdf" > "$pdf"\nexit 0',
    );
    const outDir = tmpDir();
    const err = await convertToPdf(await input(), {
      outDir,
      profileDir: tmpDir(),
      binary: fake.binary,
    }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(OfficeConversionError);
    const message = (err as Error).message;
    expect(message).toContain('noise line 199');
    expect(message).not.toContain('noise line 100 ');
    expect(message.length).toBeLessThan(700);
    expect(await readdir(outDir)).toEqual([]);
  });

  it('never runs two conversions on one profile at once', async () => {
    const fake = await fakeConverter(
      [
        'log="$(dirname "$0")/log"',
        'mark="$(dirname "$0")/running-$(echo "$1" | md5sum | cut -c1-8)"',
        '[ -e "$mark" ] && echo overlap >> "$log"',
        'touch "$mark"; echo start >> "$log"; sleep 0.2; rm "$mark"',
        'printf "%%PDF-1.4\\n" > "$pdf"',
      ].join('\n'),
    );
    const outDir = tmpDir();
    const shared = tmpDir();
    const jobs = Array.from({ length: 3 }, async () =>
      convertToPdf(await input(), { outDir, profileDir: shared, binary: fake.binary }),
    );
    // A different profile may overlap with them.
    jobs.push(
      input().then((file) => convertToPdf(file, { outDir, profileDir: tmpDir(), binary: fake.binary })),
    );
    await Promise.all(jobs);
    const log = await readFile(path.join(fake.dir, 'log'), 'utf8');
    expect(log.match(/start/g)).toHaveLength(4);
    expect(log).not.toContain('overlap');
  });

  it('says so when the converter cannot be started', async () => {
    await expect(
      convertToPdf(await input(), { outDir: tmpDir(), profileDir: tmpDir(), binary: '/nonexistent/soffice' }),
    ).rejects.toThrow(/cannot start \/nonexistent\/soffice/);
  });
});
