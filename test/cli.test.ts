/**
 * Issue 16 item 4: the `folio` command line end to end, as a child process (bin/folio.js) against
 * the service as a child process (`npm start`; PostgreSQL when DATABASE_URL is set): a folder of
 * real invoices uploaded with --wait, a table made from a YAML file, rows for every file, a run
 * waited for, an XLSX export read back with exceljs. Progress bars on a pseudo-terminal (util-linux
 * `script`) and none without one; exit codes 0, 1 (the service's message) and 2 (usage).
 */
import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, symlinkSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import ExcelJS from 'exceljs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ServerProcess, startServerProcess } from './helpers/folio-server.ts';
import { ROOT } from './helpers/process.ts';

const CORPUS = '/work/shared/corpus/extraction/invoices';
const PDFS = readdirSync(CORPUS)
  .filter((f) => f.endsWith('.pdf'))
  .sort();
const NOT_DOCUMENTS = readdirSync(CORPUS).filter((f) => !f.endsWith('.pdf'));
const FOLIO = path.join(ROOT, 'bin', 'folio.js');

interface Result {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** Runs `folio args...` with a clean environment, stdin closed and stdout/stderr piped (no TTY). */
function folio(args: string[], env: Record<string, string>): Promise<Result> {
  const proc = spawn(process.execPath, [FOLIO, ...args], {
    cwd: ROOT,
    env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '/tmp', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  proc.stdout.on('data', (d) => {
    stdout += d;
  });
  proc.stderr.on('data', (d) => {
    stderr += d;
  });
  return new Promise((resolve) => proc.once('close', (code) => resolve({ code, stdout, stderr })));
}

const quote = (s: string) => `'${s.replace(/'/g, `'\\''`)}'`;

/** Runs `folio args...` inside a pseudo-terminal (stdin, stdout and stderr all a TTY); returns what it drew. */
function folioOnTty(args: string[], env: Record<string, string>, typed?: string): Promise<Result> {
  const command = [process.execPath, FOLIO, ...args].map(quote).join(' ');
  const proc = spawn('script', ['-qfec', command, '/dev/null'], {
    cwd: ROOT,
    env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '/tmp', TERM: 'xterm', ...env },
    stdio: [typed === undefined ? 'ignore' : 'pipe', 'pipe', 'pipe'],
  });
  // What a person types at the terminal (script passes its stdin to the pseudo-terminal).
  if (typed !== undefined) proc.stdin!.end(typed);
  let stdout = '';
  proc.stdout!.on('data', (d) => {
    stdout += d;
  });
  proc.stderr!.on('data', (d) => {
    stdout += d;
  });
  return new Promise((resolve) => proc.once('close', (code) => resolve({ code, stdout, stderr: '' })));
}

/** What only a redrawn bar leaves in the output: bar glyphs, escape sequences, carriage returns. */
const BAR_GLYPHS = /[\u2588\u2591]/;
// biome-ignore lint/suspicious/noControlCharactersInRegex: looking for terminal escape sequences
const ESCAPES = /\x1b\[/;
const CR = /\r/;

describe('folio CLI end to end (issue 16)', () => {
  let server: ServerProcess;
  let env: Record<string, string>;
  let workspaceId: string;
  const tmp = mkdtempSync(path.join(os.tmpdir(), 'folio-cli-'));

  beforeAll(async () => {
    server = await startServerProcess();
    const ws = await server.workspace(5000);
    workspaceId = ws.id;
    // No FOLIO_WORKSPACE: the CLI finds the key's workspace itself.
    env = { FOLIO_URL: server.baseUrl, FOLIO_API_KEY: ws.key };
  });
  afterAll(async () => {
    await server?.stop();
  });

  it('prints complete help with exit 0: the overview and every command', async () => {
    const top = await folio(['--help'], {});
    expect(top.code).toBe(0);
    for (const c of [
      'upload',
      'files list',
      'search',
      'table create',
      'rows add',
      'run',
      'export',
      'tables list',
    ]) {
      expect(top.stdout).toContain(`  ${c} `);
    }
    expect(top.stdout).toMatch(/Exit status: 0 success; 1 .*; 2 a usage error/s);
    for (const c of [
      ['upload'],
      ['table', 'create'],
      ['rows', 'add'],
      ['run'],
      ['export'],
      ['files', 'list'],
      ['search'],
    ]) {
      const help = await folio([...c, '--help'], {});
      expect(help.code, c.join(' ')).toBe(0);
      expect(help.stdout).toContain(`Usage: folio ${c.join(' ')}`);
      expect(help.stdout).toContain('--json');
      expect(help.stderr).toBe('');
    }
  });

  it('uploads a folder of real PDFs with --wait: documents only, every one read, pages and credits counted', async () => {
    const r = await folio(['upload', CORPUS, '--wait', '--concurrency', '4', '--json'], env);
    expect(r.stderr).not.toMatch(BAR_GLYPHS);
    expect(r.stderr).not.toMatch(ESCAPES);
    expect(r.stderr).not.toMatch(CR);
    expect(r.code, r.stderr).toBe(0);
    const out = JSON.parse(r.stdout);
    expect(out.files.map((f: { name: string }) => f.name).sort()).toEqual(PDFS);
    expect(out.files.every((f: { status: string }) => f.status === 'SUCCESS')).toBe(true);
    expect(out.skipped.map((s: string) => path.basename(s)).sort()).toEqual(NOT_DOCUMENTS.sort());
    expect(out.uploaded).toBe(PDFS.length);
    expect(out.failed).toBe(0);
    expect(out.pages).toBeGreaterThanOrEqual(PDFS.length);
    expect(out.credits).toBe(out.pages); // 1 credit per page
    expect(out.balance).toBe(5000 - out.pages);
    // Plain progress lines on stderr, one per file.
    expect(r.stderr.split('\n').filter((l) => / read, \d+ pages? /.test(l))).toHaveLength(PDFS.length);
  });

  it('lists the files, as a table and as JSON', async () => {
    const human = await folio(['files', 'list'], env);
    expect(human.code).toBe(0);
    expect(human.stdout.split('\n')[0]).toMatch(/^FILE ID\s+PAGES\s+SIZE\s+UPLOADED\s+NAME$/);
    expect(human.stdout.trim().split('\n')).toHaveLength(1 + PDFS.length);
    const json = await folio(['files', 'list', '--json', '--limit', '5'], env);
    expect(JSON.parse(json.stdout)).toHaveLength(5);
  });

  let tableId: string;
  it('creates a table from a YAML column file', async () => {
    const columns = path.join(tmp, 'columns.yaml');
    writeFileSync(
      columns,
      `columns:
  - name: Vendor
    prompt: Which company issued this invoice?
  - name: Invoice number
    prompt: What is the invoice number?
  - name: Date
    prompt: What is the date of this invoice?
    outputType: date
  - name: Total
    prompt: What is the total amount of this invoice, including tax?
    outputType: number
    config: { currencyHint: any }
`,
    );
    const r = await folio(['table', 'create', '--name', 'Invoices', '--columns', columns], env);
    expect(r.code, r.stderr).toBe(0);
    tableId = /Created table (rev_\w+) "Invoices" with 4 columns/.exec(r.stdout)![1];
    expect(r.stdout).toMatch(/rcol_\w+\s+number\s+Total/);
    const listed = await folio(['tables', 'list'], env);
    expect(JSON.parse(listed.stdout)).toMatchObject({ success: true, total: 1, data: [{ id: tableId }] });
  });

  it('adds every file as a row, by table name; again adds nothing', async () => {
    const r = await folio(['rows', 'add', 'Invoices', '--all-files'], env);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toContain(`Added ${PDFS.length} rows to table ${tableId}.`);
    const again = await folio(['rows', 'add', tableId, '--all-files', '--json'], env);
    expect(JSON.parse(again.stdout)).toMatchObject({ tableId, added: [] });
    expect(JSON.parse(again.stdout).alreadyThere).toHaveLength(PDFS.length);
  });

  it('refuses to start a run without --yes when nobody can answer (exit 2, usage on stderr)', async () => {
    const r = await folio(['run', 'Invoices', '--wait'], env);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain(
      `Run on table ${tableId}: ${PDFS.length * 4} cells, at most ${PDFS.length * 16} credits`,
    );
    expect(r.stderr).toMatch(/pass --yes/);
    expect(r.stderr).toContain('Usage: folio run <table>');
    expect(r.stdout).toBe('');
  });

  it('runs the table with --wait --yes and prints JSON', async () => {
    const r = await folio(['run', 'Invoices', '--wait', '--yes', '--json'], env);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).not.toMatch(BAR_GLYPHS);
    expect(r.stderr).not.toMatch(CR);
    const out = JSON.parse(r.stdout);
    expect(out.preview).toMatchObject({ cells: PDFS.length * 4 });
    expect(out.run).toMatchObject({ status: 'SUCCESS', totalCells: PDFS.length * 4, pendingCells: 0 });
    expect(out.answered + out.failed).toBe(PDFS.length * 4);
    expect(out.credits).toBeGreaterThan(0);
    expect(out.credits).toBeLessThanOrEqual(out.preview.cost);
  });

  it('exports XLSX to a file: one sheet row per file, read back with exceljs', async () => {
    const file = path.join(tmp, 'invoices.xlsx');
    const r = await folio(['export', 'Invoices', '--format', 'xlsx', '-o', file], env);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toBe('');
    expect(r.stderr).toMatch(/^Wrote .*invoices\.xlsx \(/);
    const book = new ExcelJS.Workbook();
    await book.xlsx.readFile(file);
    const sheet = book.worksheets[0];
    expect(sheet.actualRowCount).toBe(1 + PDFS.length);
    const header = (sheet.getRow(1).values as unknown[]).filter(Boolean);
    expect(header).toEqual(expect.arrayContaining(['Vendor', 'Invoice number', 'Date', 'Total']));
    const names = [];
    for (let i = 2; i <= sheet.rowCount; i++) names.push(String(sheet.getRow(i).getCell(1).value));
    expect(names.sort()).toEqual(PDFS);
    expect(readdirSync(tmp).filter((f) => f.endsWith('.partial'))).toEqual([]);
  });

  it('exports CSV and JSON to stdout', async () => {
    const csv = await folio(['export', tableId, '--format', 'csv', '--include', 'status'], env);
    expect(csv.code, csv.stderr).toBe(0);
    const lines = csv.stdout.trim().split('\r\n');
    expect(lines).toHaveLength(1 + PDFS.length);
    expect(lines[0]).toContain('Total status');
    const json = await folio(['export', tableId, '--format', 'json'], env);
    expect(JSON.parse(json.stdout)).toHaveLength(PDFS.length);
  });

  it('searches pages (--json parses)', async () => {
    const r = await folio(['search', 'total amount due', '--limit', '3', '--json'], env);
    expect(r.code, r.stderr).toBe(0);
    const hits = JSON.parse(r.stdout);
    expect(hits.length).toBeGreaterThan(0);
    expect(hits.length).toBeLessThanOrEqual(3);
    expect(hits[0]).toMatchObject({ datasetId: expect.stringMatching(/^ds_/), score: expect.any(Number) });
  });

  it('exits 1 with the service message as is when the service refuses', async () => {
    const missing = await folio(['export', 'rev_doesnotexist0000000', '--format', 'csv'], env);
    const raw = await fetch(
      `${server.baseUrl}/v2/workspaces/${workspaceId}/tables/rev_doesnotexist0000000/export`,
      {
        headers: { 'x-api-key': env.FOLIO_API_KEY },
      },
    );
    expect(raw.status).toBe(404);
    const message = (await raw.text()).trim();
    expect(missing.code).toBe(1);
    expect(missing.stdout).toBe('');
    expect(missing.stderr).toBe(`folio: ${message} (HTTP 404)\n`);

    // A column the service refuses: its message, and the half-made table archived.
    const bad = path.join(tmp, 'bad.json');
    writeFileSync(bad, JSON.stringify([{ name: 'Items', prompt: 'Which items?', outputType: 'list' }]));
    const refused = await folio(['table', 'create', '--name', 'Bad', '--columns', bad], env);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toMatch(/outputType/);
    expect(refused.stderr).toMatch(/\(HTTP 400\)/);
    const tables = JSON.parse((await folio(['tables', 'list'], env)).stdout).data;
    expect(
      tables.filter((t: { name: string; archivedAt: number | null }) => t.name === 'Bad' && !t.archivedAt),
    ).toEqual([]);

    const badKey = await folio(['files', 'list'], { ...env, FOLIO_API_KEY: 'folio_wrong' });
    expect(badKey.code).toBe(1);
    expect(badKey.stderr).toMatch(/\(HTTP 401\)/);
  });

  it('exits 2 with the usage on stderr for usage errors', async () => {
    const cases: string[][] = [
      ['upload', '--bogus', CORPUS],
      ['upload'],
      ['upload', path.join(tmp, 'no-such-dir')],
      ['export', 'Invoices', '--format', 'pdf'],
      ['rows', 'add', 'Invoices'],
      ['table', 'create', '--name', 'x'],
      ['frobnicate'],
      [],
    ];
    for (const args of cases) {
      const r = await folio(args, env);
      expect(r.code, args.join(' ')).toBe(2);
      expect(r.stderr, args.join(' ')).toMatch(/^folio: .+\n\nUsage: folio /);
      expect(r.stdout, args.join(' ')).toBe('');
    }
    const noKey = await folio(['files', 'list'], { FOLIO_URL: server.baseUrl });
    expect(noKey.code).toBe(2);
    expect(noKey.stderr).toMatch(/FOLIO_API_KEY is not set/);
  });

  it('draws bars on a terminal, and none when NO_COLOR is set or without a terminal', async () => {
    const one = path.join(CORPUS, PDFS[0]);
    const tty = await folioOnTty(['upload', one, '--wait'], env);
    expect(tty.code).toBe(0);
    expect(tty.stdout).toMatch(BAR_GLYPHS);
    expect(tty.stdout).toMatch(ESCAPES);
    expect(tty.stdout).toMatch(CR);
    expect(tty.stdout).toMatch(/1 file uploaded; 1 page read; 1 credit spent/);

    const runTty = await folioOnTty(['run', 'Invoices', '--columns', 'Total', '--wait', '--yes'], env);
    expect(runTty.code).toBe(0);
    expect(runTty.stdout).toMatch(/cells answered\s+[\u2588\u2591]+/);
    expect(runTty.stdout).toMatch(/Run rrun_\w+ SUCCESS/);

    // On a terminal, run asks before spending: "n" starts nothing (exit 1), "y" starts it.
    const declined = await folioOnTty(['run', 'Invoices', '--columns', 'Date'], env, 'n\n');
    expect(declined.stdout).toMatch(/Run on table rev_\w+: \d+ cells, at most \d+ credits/);
    expect(declined.stdout).toContain('Start the run? [y/N]');
    expect(declined.stdout).toMatch(/folio: not started/);
    expect(declined.code).toBe(1);
    const accepted = await folioOnTty(['run', 'Invoices', '--columns', 'Date'], env, 'y\n');
    expect(accepted.stdout).toMatch(/Started run rrun_\w+ on table rev_\w+: \d+ cells\./);
    expect(accepted.code).toBe(0);

    const noColor = await folioOnTty(['upload', one, '--wait'], { ...env, NO_COLOR: '1' });
    expect(noColor.code).toBe(0);
    expect(noColor.stdout).not.toMatch(BAR_GLYPHS);
    expect(noColor.stdout).not.toMatch(ESCAPES);

    const piped = await folio(['upload', one, '--wait'], env);
    expect(piped.code).toBe(0);
    for (const s of [piped.stdout, piped.stderr]) {
      expect(s).not.toMatch(BAR_GLYPHS);
      expect(s).not.toMatch(ESCAPES);
      expect(s).not.toMatch(CR);
    }
    expect(piped.stdout).toMatch(/1 file uploaded; 1 page read; 1 credit spent/);
  });
  it('picks documents from directories (links followed), globs and names, each file once', async () => {
    const dir = path.join(tmp, 'picked');
    mkdirSync(path.join(dir, 'nested'), { recursive: true });
    symlinkSync(path.join(CORPUS, PDFS[1]), path.join(dir, 'a.pdf'));
    symlinkSync(path.join(CORPUS, PDFS[2]), path.join(dir, 'nested', 'b.pdf'));
    writeFileSync(path.join(dir, 'notes.txt'), 'not a document');
    writeFileSync(path.join(dir, '.hidden.pdf'), 'hidden');
    // The glob names a.pdf's target again, the last argument b.pdf's: neither is sent twice.
    const glob = path.join(CORPUS, `${PDFS[1].slice(0, 16)}*.pdf`);
    const r = await folio(['upload', dir, glob, path.join(CORPUS, PDFS[2]), '--json'], env);
    expect(r.code, r.stderr).toBe(0);
    const out = JSON.parse(r.stdout);
    expect(out.files.map((f: { path: string }) => path.relative(dir, f.path)).sort()).toEqual([
      'a.pdf',
      'nested/b.pdf',
    ]);
    expect(out.skipped).toEqual([path.join(dir, 'notes.txt')]);
    expect(out.files.every((f: { jobId: string }) => f.jobId.startsWith('dsj_'))).toBe(true);
    expect(out.pages).toBeNull(); // without --wait nothing is counted yet
    expect(r.stderr).toMatch(/Skipping 1 file that is not a document: notes\.txt/);

    const none = await folio(['upload', path.join(tmp, 'nothing-*.pdf')], env);
    expect(none.code).toBe(2);
    expect(none.stderr).toMatch(/no file matches/);
  });
});
