/**
 * Issue 15, F1: office input under budgets. An OOXML file's zip directory is read before
 * LibreOffice starts (a zip bomb is refused in milliseconds, uncharged, and holds no slot),
 * and the converter runs under CPU-time and memory rlimits besides its wall-clock timeout.
 */
import { mkdtempSync } from 'node:fs';
import { chmod, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { conversionsStarted, convertToPdf, OfficeConversionError } from '../src/ingest/office.ts';
import { checkZipBudget, type ZipBudget } from '../src/ingest/zip-budget.ts';
import { makeTextPdf } from './fixtures/pdf.ts';
import { makeXlsx } from './fixtures/zip.ts';
import { type Harness, startHarness, type TestWorkspace } from './helpers/harness.ts';

const made: string[] = [];
const tmpDir = () => {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'folio-office-budget-'));
  made.push(dir);
  return dir;
};
afterAll(async () => {
  await Promise.all(made.map((dir) => rm(dir, { recursive: true, force: true })));
});

const MB = 1024 * 1024;
const BUDGET: ZipBudget = { maxUnzippedBytes: 512 * MB, maxRatio: 100, maxEntries: 10_000 };
/** ~105 MB of one repeated row: the bomb deflates to a few hundred KB. */
const BOMB_ROWS = 1_600_000;

async function written(bytes: Uint8Array, name = 'book.xlsx'): Promise<string> {
  const file = path.join(tmpDir(), name);
  await writeFile(file, bytes);
  return file;
}

describe('checkZipBudget: the zip directory read before conversion', () => {
  it('passes an ordinary workbook', async () => {
    expect(await checkZipBudget(await written(await makeXlsx(50)), BUDGET)).toBeNull();
  });

  it('refuses a part expanding beyond the ratio: a ~100 MB sheet in a few hundred KB', async () => {
    const bomb = await makeXlsx(BOMB_ROWS);
    expect(bomb.length).toBeLessThan(1 * MB);
    const verdict = await checkZipBudget(await written(bomb), BUDGET);
    expect(verdict).toMatch(
      /part "xl\/worksheets\/sheet1\.xml" expands \d+ times .* more than the 100 times/,
    );
  });

  it('refuses an uncompressed total over the limit', async () => {
    const file = await written(await makeXlsx(200_000)); // ~13 MB unzipped
    const verdict = await checkZipBudget(file, { ...BUDGET, maxUnzippedBytes: 4 * MB, maxRatio: 1e6 });
    expect(verdict).toMatch(/expands to 1\d MB when unzipped, more than the 4 MB this server allows/);
  });

  it('refuses more parts than allowed, from the directory count alone', async () => {
    const file = await written(await makeXlsx(1, undefined, { extraParts: 40 }));
    expect(await checkZipBudget(file, { ...BUDGET, maxEntries: 20 })).toMatch(
      /it has 45 parts, more than the 20 this server allows/,
    );
    expect(await checkZipBudget(file, { ...BUDGET, maxEntries: 45 })).toBeNull();
  });

  it('refuses a part inflating to more than its directory entry declares (a lying directory)', async () => {
    // 100,000 rows (~6.5 MB) declared as 1 KB: the declared sizes pass, the inflate count does not.
    const file = await written(await makeXlsx(100_000, undefined, { claimedSheetSize: 1000 }));
    expect(await checkZipBudget(file, BUDGET)).toMatch(
      /part "xl\/worksheets\/sheet1\.xml" inflates to more than the 1 KB its zip directory declares/,
    );
  });

  it('says so for bytes that are not a zip', async () => {
    const file = await written(Buffer.from('PK\u0003\u0004 but nothing after it'));
    expect(await checkZipBudget(file, BUDGET)).toMatch(/not a readable zip file/);
  });
});

describe('convertToPdf under CPU-time and memory rlimits', () => {
  async function fakeConverter(body: string): Promise<string> {
    const dir = tmpDir();
    const binary = path.join(dir, 'soffice');
    await writeFile(binary, `#!/bin/sh\n${body}\n`);
    await chmod(binary, 0o755);
    return binary;
  }
  const input = async () => written(Buffer.from('irrelevant to a fake converter'), 'in.docx');

  it('starts the converter with RLIMIT_CPU and RLIMIT_AS set', async () => {
    const out = path.join(tmpDir(), 'limits');
    const binary = await fakeConverter(`echo "$(ulimit -t) $(ulimit -v)" > ${out}\nexit 1`);
    await convertToPdf(await input(), {
      outDir: tmpDir(),
      profileDir: tmpDir(),
      binary,
      cpuSeconds: 7,
      memoryBytes: 1536 * MB,
    }).catch(() => {});
    expect((await readFile(out, 'utf8')).trim()).toBe(`7 ${1536 * 1024}`);
  });

  it('has the kernel stop a converter spinning on the CPU, long before the wall-clock timeout', async () => {
    const binary = await fakeConverter('while :; do :; done');
    const err = await convertToPdf(await input(), {
      outDir: tmpDir(),
      profileDir: tmpDir(),
      binary,
      timeoutMs: 60_000,
      cpuSeconds: 1,
    }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(OfficeConversionError);
    expect((err as Error).message).toMatch(
      /was killed by SIG(XCPU|KILL); it may have run out of its CPU-time/,
    );
    expect((err as Error).message).not.toMatch(/did not finish within/);
  });
});

describe('a zip bomb uploaded through the API (issue 15, F1)', () => {
  let h: Harness;
  let hostile: TestWorkspace;
  let other: TestWorkspace;

  beforeAll(async () => {
    h = await startHarness({ WORKER_CONCURRENCY: '1' }, { worker: true });
    hostile = await h.workspace({ credits: 10 });
    other = await h.workspace({ credits: 10 });
  });
  afterAll(() => h?.close());

  it('ends ERROR saying why, charges nothing, never starts LibreOffice and does not hold up another workspace', {
    timeout: 120_000,
  }, async () => {
    const before = conversionsStarted();
    const bomb = await makeXlsx(BOMB_ROWS);
    // Two bombs first, then another workspace's small PDF behind them on a one-slot worker.
    const bombJobs: string[] = [];
    for (const name of ['bomb-1.xlsx', 'bomb-2.xlsx']) {
      const r = await h.upload(hostile, { file: { data: bomb, name } });
      expect(r.status).toBe(200);
      bombJobs.push(((await r.json()) as { data: { id: string } }).data.id);
    }
    const pdf = await makeTextPdf([['Quarterly report'], ['Page two'], ['Page three']]);
    const r = await h.upload(other, { file: { data: pdf, name: 'small.pdf' } });
    expect(r.status).toBe(200);
    const pdfJob = ((await r.json()) as { data: { id: string } }).data.id;

    for (const id of bombJobs) {
      const job = await h.waitJob(hostile, id);
      expect(job.status).toBe('ERROR');
      expect(job.statusText).toMatch(
        /^The document was refused before conversion: its part "xl\/worksheets\/sheet1\.xml" expands \d+ times .*Nothing was charged\.$/,
      );
    }
    expect(await h.waitJob(other, pdfJob)).toMatchObject({ status: 'SUCCESS', statusText: null });

    expect(conversionsStarted()).toBe(before);
    const w = (await h.admin('GET', `/admin/workspaces/${hostile.id}`)).json().data;
    expect(w.balance).toBe(10);
    const files = (await h.request('GET', `/v2/workspaces/${hostile.id}/files`, { key: hostile.key })).json()
      .data as { itemCount: number }[];
    expect(files.map((f) => f.itemCount)).toEqual([0, 0]);
    expect((await h.admin('GET', `/admin/workspaces/${other.id}`)).json().data.balance).toBe(7);
  });
});
