import { execFile } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import ExcelJS from 'exceljs';
import pino from 'pino';
import { type Browser, type BrowserContext, chromium, type Page } from 'playwright-core';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WEB_APP_DIR } from '../src/http/routes/web-app/index.ts';
import { type RunningWorker, runWorker } from '../src/start/worker.ts';
import { makePicturePdf, makeTextPdf } from './fixtures/pdf.ts';
import { type Harness, startHarness, type TestWorkspace } from './helpers/harness.ts';
import { api, contractPages, type Json, until } from './helpers/runs.ts';

// Issue 8 acceptance: the web app in real headless Chromium against a running service with
// a worker. Upload through the UI, a table with a date and a number column, a run confirmed
// after its preview cost, a citation opened with its box over the cited words, an override
// and its event, a canceled run; screenshots for a reviewer; no request leaves the origin.

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const CHROMIUM = '/usr/bin/chromium';
const SHOTS = path.join(ROOT, 'test-output', 'screenshots');
const run = promisify(execFile);

/** expect.poll with room for a loaded machine (its default gives up after one second). */
const eventually = <T>(probe: () => T | Promise<T>, timeout = 30_000) =>
  expect.poll(probe, { timeout, interval: 100 });

/**
 * What the functions run inside the page use of the browser, typed here because the test
 * program is compiled without the DOM library.
 */
interface Canvas2d {
  drawImage(image: unknown, x: number, y: number): void;
  getImageData(x: number, y: number, w: number, h: number): { data: Uint8ClampedArray };
}
interface InPage {
  getComputedStyle(el: unknown): { backgroundColor: string; backgroundImage: string };
  DataTransfer: new () => { items: { add(file: unknown): void } };
  File: new (parts: unknown[], name: string, options: { type: string }) => unknown;
  document: {
    activeElement: { getAttribute(name: string): string | null } | null;
    createElement(tag: 'canvas'): { width: number; height: number; getContext(kind: '2d'): Canvas2d | null };
  };
}
type Img = { naturalWidth: number; naturalHeight: number };

function newestIn(dir: string): number {
  let newest = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const p = path.join(dir, entry.name);
    newest = Math.max(newest, entry.isDirectory() ? newestIn(p) : statSync(p).mtimeMs);
  }
  return newest;
}

/** Builds the app when dist/web is missing or older than its sources (npm run setup builds it too). */
async function ensureBuilt(): Promise<void> {
  const index = path.join(WEB_APP_DIR, 'index.html');
  if (existsSync(index) && statSync(index).mtimeMs >= newestIn(path.join(ROOT, 'web'))) return;
  await run(
    process.execPath,
    [path.join(ROOT, 'node_modules/vite/bin/vite.js'), 'build', '--config', 'web/vite.config.ts'],
    {
      cwd: ROOT,
    },
  );
}

describe('the web app in Chromium (issue 8)', () => {
  let h: Harness;
  let ws: TestWorkspace;
  let a: ReturnType<typeof api>;
  let worker: RunningWorker | null = null;
  let browser: Browser;
  let context: BrowserContext;
  let page: Page;
  let origin: string;
  const offOrigin: string[] = [];
  const pageErrors: string[] = [];
  let tableId = '';

  const startWorker = () => {
    worker = runWorker(
      { config: h.config, db: h.db, shareSecret: h.shareSecret, blobs: h.blobs, shutdown: async () => {} },
      pino({ level: 'silent' }),
    );
  };
  const cell = (rowIndex: number, columnName: string) =>
    page.locator(
      `tbody tr:nth-child(${rowIndex + 1}) td[data-testid=cell][data-column-id="${columnIdOf(columnName)}"]`,
    );
  const columnIds = new Map<string, string>();
  const columnIdOf = (name: string) => columnIds.get(name) ?? 'unknown';
  const fileIdOf = async (name: string) =>
    ((await a.must('GET', '/files?limit=100')) as Json[]).find((f) => f.fileName === name)!.id as string;

  beforeAll(async () => {
    if (!existsSync(CHROMIUM))
      throw new Error(`${CHROMIUM} is missing: run npm run setup (installs Debian chromium)`);
    mkdirSync(SHOTS, { recursive: true });
    await ensureBuilt();
    // The worker is ours (not the harness's) so the cancel test can stop it and keep a run in flight.
    h = await startHarness({ RUN_CONCURRENCY: '1' });
    startWorker();
    ws = await h.workspace({ credits: 1000 });
    a = api(h, ws);
    origin = new URL(h.baseUrl).origin;
    browser = await chromium.launch({ executablePath: CHROMIUM, headless: true, args: ['--no-sandbox'] });
    context = await browser.newContext({
      locale: 'en-US',
      timezoneId: 'UTC',
      viewport: { width: 1400, height: 900 },
    });
    // Nothing but the service itself: any other request is recorded and refused.
    await context.route('**/*', (route) => {
      const url = route.request().url();
      if (url.startsWith('data:') || url.startsWith('blob:') || new URL(url).origin === origin)
        return route.continue();
      offOrigin.push(url);
      return route.abort();
    });
    page = await context.newPage();
    page.setDefaultTimeout(30_000);
    page.on('pageerror', (e) => pageErrors.push(String(e)));
    page.on('console', (m) => {
      if (m.type() === 'error' && /Content Security Policy|Refused to/.test(m.text()))
        pageErrors.push(m.text());
    });
  }, 300_000);

  afterAll(async () => {
    await browser?.close();
    await worker?.stop();
    await h?.close();
  });

  it('serves the built app: index.html no-cache, hashed assets immutable, a CSP with no external origin', async () => {
    const index = await fetch(`${h.baseUrl}/app/`);
    expect(index.status).toBe(200);
    expect(index.headers.get('cache-control')).toBe('no-cache');
    const csp = index.headers.get('content-security-policy') ?? '';
    expect(csp).toContain("default-src 'self'");
    expect(csp).toContain("img-src 'self' blob: data:");
    expect(csp).not.toMatch(/https?:|\*/);
    const html = await index.text();
    const assets = [...html.matchAll(/(?:src|href)="(\/app\/assets\/[^"]+)"/g)].map((m) => m[1]!);
    expect(assets.length).toBeGreaterThanOrEqual(2);
    for (const asset of assets) {
      const r = await fetch(`${h.baseUrl}${asset}`);
      expect(r.status, asset).toBe(200);
      expect(r.headers.get('cache-control'), asset).toBe('public, max-age=31536000, immutable');
    }
    // No external origin referenced anywhere in the page or its bundles.
    for (const asset of [...assets, '/app/']) {
      const text = await (await fetch(`${h.baseUrl}${asset}`)).text();
      expect(text, asset).not.toMatch(
        /<script[^>]+src="https?:|<link[^>]+href="https?:|@import\s+url\(["']?https?:/,
      );
    }
    const client = await fetch(`${h.baseUrl}/app/tables/rev_whatever`);
    expect(client.status).toBe(200);
    expect(await client.text()).toBe(html);
  });

  it('takes a pasted key, keeps it in session storage only, and shows the credits', async () => {
    await page.goto(`${h.baseUrl}/app`);
    await page.getByLabel('API key').fill(ws.key);
    await page.getByRole('button', { name: 'Open workspace' }).click();
    await eventually(() => page.getByTestId('balance').textContent()).toBe('1,000');
    expect(page.url()).not.toContain(ws.key);
    expect(await page.evaluate(() => sessionStorage.getItem('folio.apiKey'))).toBe(ws.key);
    expect(await page.evaluate(() => localStorage.length)).toBe(0);
  });

  it('uploads two PDFs (file chooser and drop) with progress, and waits for their ingest', async () => {
    await page.getByRole('link', { name: 'Files' }).click();
    const chooserOpened = page.waitForEvent('filechooser');
    await page.getByRole('button', { name: 'Choose files…' }).click();
    const chooser = await chooserOpened;
    expect(chooser.isMultiple()).toBe(true);
    await chooser.setFiles({
      name: 'contract-march.pdf',
      mimeType: 'application/pdf',
      buffer: Buffer.from(await makeTextPdf(contractPages(3))),
    });
    // The second by drag and drop, as a browser delivers a dropped file.
    const second = Buffer.from(await makeTextPdf(contractPages(4))).toString('base64');
    const dataTransfer = await page.evaluateHandle((b64) => {
      const bytes = Uint8Array.from(atob(b64), (c) => c.charCodeAt(0));
      const w = globalThis as unknown as InPage;
      const dt = new w.DataTransfer();
      dt.items.add(new w.File([bytes], 'contract-april.pdf', { type: 'application/pdf' }));
      return dt;
    }, second);
    await page.getByTestId('dropzone').dispatchEvent('drop', { dataTransfer });

    const uploads = page.getByTestId('upload');
    await eventually(() => uploads.count()).toBe(2);
    await eventually(() => page.locator('[data-testid=upload][data-phase=done]').count(), 120_000).toBe(2);
    for (const p of await page.locator('[data-testid=upload] progress').all()) {
      expect(await p.evaluate((el) => (el as unknown as { value: number }).value)).toBe(1);
    }
    const rows = page.getByTestId('file-row');
    await eventually(() => rows.count()).toBe(2);
    // Page thumbnails through the items' share links.
    await page.getByRole('button', { name: /contract-march\.pdf/ }).click();
    const thumb = page.getByTestId('thumbnails').locator('img').first();
    await eventually(() => thumb.evaluate((img) => (img as unknown as Img).naturalWidth)).toBeGreaterThan(0);
    expect(await thumb.getAttribute('src')).toMatch(/^\/v2\/share\/dsx_[0-9A-Za-z]+\?token=v1\./);
  }, 180_000);

  it('creates a table with a date and a number column and both files as rows', async () => {
    await page.getByRole('link', { name: 'Tables' }).click();
    await page.getByLabel('new table name').fill('Contracts');
    await page.getByRole('button', { name: 'Create table' }).click();
    await eventually(() => page.getByTestId('table-name').textContent()).toBe('Contracts');
    tableId = page.url().split('/').pop()!;
    expect(tableId).toMatch(/^rev_/);
    // Rename (4.1 PATCH): Save is refused for a blank name, then sends the trimmed one.
    await page.getByRole('button', { name: 'Rename' }).click();
    await page.getByLabel('table name', { exact: true }).fill('   ');
    expect(await page.getByRole('button', { name: 'Save' }).isDisabled()).toBe(true);
    await page.getByLabel('table name', { exact: true }).fill('  Contracts 2021  ');
    await page.getByRole('button', { name: 'Save' }).click();
    await eventually(() => page.getByTestId('table-name').textContent()).toBe('Contracts 2021');
    expect((await a.must('GET', `/tables/${tableId}`)).table.name).toBe('Contracts 2021');

    const addColumn = async (name: string, prompt: string, type: string) => {
      await page.getByRole('button', { name: '+ Column' }).click();
      const form = page.getByTestId('add-column');
      await form.getByLabel('Name').fill(name);
      await form.getByLabel('Question asked of every row').fill(prompt);
      await form.getByLabel('Answer type').selectOption(type);
      await form.getByRole('button', { name: 'Add column' }).click();
      await page.locator(`th[data-column-id]`, { hasText: name }).waitFor();
    };
    await addColumn('Effective date', 'What is the effective date?', 'date');
    await addColumn('Total price', 'What is the total contract price?', 'number');
    for (const col of await a.must('GET', `/tables/${tableId}/columns`)) columnIds.set(col.name, col.id);
    expect(JSON.parse((await a.must('GET', `/tables/${tableId}/columns`))[0].config)).toEqual({
      dateDisplay: 'exact',
    });

    await page.getByRole('button', { name: '+ Rows' }).click();
    const choices = page.getByTestId('row-choices').locator('input[type=checkbox]');
    await eventually(() => choices.count()).toBe(2);
    for (const c of await choices.all()) await c.check();
    await page.getByTestId('add-rows').click();
    await eventually(() => page.locator('td[data-testid=cell]').count()).toBe(4);
  });

  it('runs the table after showing the preview cost; every cell fills with its typed value', async () => {
    await page.getByTestId('run-table').click();
    await eventually(() => page.getByTestId('preview-cost').textContent()).toBe('16');
    expect(await page.getByTestId('preview-cells').textContent()).toBe('4');
    await page.getByTestId('confirm-run').click();
    await eventually(() => page.locator('td[data-testid=cell][data-status=SUCCESS]').count(), 120_000).toBe(
      4,
    );
    const dates = await page
      .locator(`td[data-column-id="${columnIdOf('Effective date')}"]`)
      .allTextContents();
    const prices = await page.locator(`td[data-column-id="${columnIdOf('Total price')}"]`).allTextContents();
    expect(dates.sort()).toEqual(['2021-03-03', '2021-03-04']);
    expect(prices.sort()).toEqual(['12,300', '12,400']);
    await eventually(() => page.locator('[data-testid=run]').first().getAttribute('data-status')).toBe(
      'SUCCESS',
    );
    // 16 credits captured for the cells (and 2 for the pages read), shown in the header.
    const wallet = await a.wallet();
    expect(wallet.monthSpend).toBe(16 + 2);
    await eventually(() => page.getByTestId('credits').textContent(), 40_000).toBe(
      `${wallet.balance} credits · ${wallet.monthSpend} spent this month`,
    );
    await page.screenshot({ path: path.join(SHOTS, 'grid.png'), fullPage: true });
  }, 180_000);

  it('moves between cells with the arrow keys and opens one with Enter', async () => {
    await cell(0, 'Effective date').click();
    await page.getByRole('button', { name: 'close panel' }).click();
    await cell(0, 'Effective date').focus();
    await page.keyboard.press('ArrowRight');
    await page.keyboard.press('ArrowDown');
    await eventually(() =>
      page.evaluate(() => (globalThis as unknown as InPage).document.activeElement?.getAttribute('data-pos')),
    ).toBe('1:1');
    await page.keyboard.press('ArrowLeft');
    await page.keyboard.press('ArrowUp');
    await eventually(() =>
      page.evaluate(() => (globalThis as unknown as InPage).document.activeElement?.getAttribute('data-pos')),
    ).toBe('0:0');
    await page.keyboard.press('Enter');
    await page.getByTestId('cell-panel').waitFor();
    expect(await page.getByTestId('cell-panel').locator('h2').textContent()).toBe('Effective date');
  });

  it('opens a citation: the page image through a share link, the box drawn over the cited words, the quote', async () => {
    const cells: Json[] = await a.cells(tableId);
    const rows: Json[] = (await a.must('GET', `/tables/${tableId}`)).rows;
    const firstRow = rows.sort((x, y) => x.sortOrder - y.sortOrder)[0]!;
    const target = cells.find((c) => c.rowId === firstRow.id && c.columnId === columnIdOf('Effective date'))!;
    const citation = target.citations[0];
    expect(citation.box).toHaveLength(4);
    expect(citation.quote).toMatch(/2021/);

    await page.getByTestId('citation').first().click();
    const img = page.getByTestId('citation-image');
    await eventually(() => img.evaluate((el) => (el as unknown as Img).naturalWidth)).toBeGreaterThan(0);
    expect(await img.getAttribute('src')).toMatch(/^\/v2\/share\/dsx_[0-9A-Za-z]+\?token=v1\./);
    expect(await page.getByTestId('citation-quote').textContent()).toContain(citation.quote);
    const overlay = page.getByTestId('citation-box');
    await overlay.waitFor();

    // The overlay sits at the box's fractions of the image as rendered.
    const imgRect = (await img.boundingBox())!;
    const boxRect = (await overlay.boundingBox())!;
    const [x0, y0, x1, y1] = citation.box as number[];
    const near = (got: number, want: number) => expect(Math.abs(got - want)).toBeLessThan(2);
    near(boxRect.x, imgRect.x + x0! * imgRect.width);
    near(boxRect.y, imgRect.y + y0! * imgRect.height);
    near(boxRect.width, (x1! - x0!) * imgRect.width);
    near(boxRect.height, (y1! - y0!) * imgRect.height);

    // Over the cited words: the page text is drawn at known places (Helvetica 14 pt, from a
    // 72 pt margin, 22.4 pt per line on US Letter): the date is on the second line.
    const lineTop = (72 + 22.4) / 792;
    const lineBottom = (72 + 22.4 + 14 * 1.2) / 792;
    expect(y0!).toBeLessThan(lineBottom);
    expect(y1!).toBeGreaterThan(lineTop);
    expect(y1! - y0!).toBeLessThan(0.05);
    expect(x0!).toBeGreaterThanOrEqual(72 / 612 - 0.01);
    // And ink is under it, white just above it (between the lines).
    const ink = await img.evaluate(
      (el, box) => {
        const image = el as unknown as Img;
        const canvas = (globalThis as unknown as InPage).document.createElement('canvas');
        canvas.width = image.naturalWidth;
        canvas.height = image.naturalHeight;
        const g = canvas.getContext('2d')!;
        g.drawImage(image, 0, 0);
        const dark = (fx0: number, fy0: number, fx1: number, fy1: number) => {
          const x = Math.round(fx0 * canvas.width);
          const y = Math.round(fy0 * canvas.height);
          const w = Math.max(1, Math.round((fx1 - fx0) * canvas.width));
          const hgt = Math.max(1, Math.round((fy1 - fy0) * canvas.height));
          const d = g.getImageData(x, y, w, hgt).data;
          let n = 0;
          for (let i = 0; i < d.length; i += 4) if (d[i]! + d[i + 1]! + d[i + 2]! < 384) n++;
          return n / (w * hgt);
        };
        const [bx0, by0, bx1, by1] = box;
        const gap = (by1 - by0) * 0.3;
        return { inside: dark(bx0, by0, bx1, by1), above: dark(bx0, by0 - gap - 0.004, bx1, by0 - 0.004) };
      },
      citation.box as [number, number, number, number],
    );
    expect(ink.inside).toBeGreaterThan(0.05);
    expect(ink.above).toBeLessThan(0.01);
    await page.screenshot({ path: path.join(SHOTS, 'citation.png') });
    await page.keyboard.press('Escape');
    await img.waitFor({ state: 'detached' });
  });

  it('overrides a cell with a typed value and shows the event in its history', async () => {
    const panel = page.getByTestId('cell-panel');
    await panel.getByLabel('override value').fill('2020-12-31');
    await panel.getByTestId('save-override').click();
    const event = panel.locator('[data-testid=event][data-type=override_set]');
    await event.waitFor();
    expect(await event.textContent()).toContain('2020-12-31');
    expect(await event.textContent()).toContain(ws.keyId);
    await eventually(() => cell(0, 'Effective date').textContent()).toContain('2020-12-31');
    expect(await cell(0, 'Effective date').textContent()).toContain('edited');
    // Cleared again and set again, as the API records it.
    await panel.getByRole('button', { name: 'Clear override' }).click();
    await panel.locator('[data-testid=event][data-type=override_cleared]').waitFor();
    await panel.getByLabel('override value').fill('2020-12-31');
    await panel.getByTestId('save-override').click();
    await eventually(() => panel.locator('[data-testid=event]').count()).toBe(3);
    await page.screenshot({ path: path.join(SHOTS, 'grid-cell-panel.png') });
    const target = (await a.cells(tableId)).find((c) => c.humanOverride !== null)!;
    expect(target.humanOverride).toEqual({ type: 'date', value: '2020-12-31' });
    await page.getByRole('button', { name: 'close panel' }).click();
  });

  it('issue 16: the Export menu downloads the table as CSV and XLSX, the override shown', async () => {
    const body = await a.must('GET', `/tables/${tableId}`);
    const rows = (body.rows as Json[]).sort((x, y) => x.sortOrder - y.sortOrder);
    const shown = (rowId: string, column: string) => {
      const c = (body.cells as Json[]).find((x) => x.rowId === rowId && x.columnId === columnIdOf(column))!;
      return (c.humanOverride ?? c.value).value;
    };
    const names = new Map(
      ((await a.must('GET', '/files?limit=100')) as Json[]).map((f) => [f.id, f.fileName]),
    );
    const exportAs = async (label: string) => {
      await page.getByTestId('export').click();
      if (label === 'CSV') await page.screenshot({ path: path.join(SHOTS, 'export-menu.png') });
      const started = page.waitForEvent('download');
      await page.getByRole('menu', { name: 'export table' }).getByRole('menuitem', { name: label }).click();
      const download = await started;
      return { name: download.suggestedFilename(), bytes: readFileSync((await download.path())!) };
    };

    const csv = await exportAs('CSV');
    expect(csv.name).toBe('Contracts 2021.csv');
    const lines = csv.bytes.toString('utf8').split('\r\n');
    expect(lines[0]).toBe('Document,Row id,Effective date,Total price');
    expect(lines.slice(1)).toEqual([
      ...rows.map((r) =>
        [names.get(r.subjectId), r.id, shown(r.id, 'Effective date'), shown(r.id, 'Total price')].join(','),
      ),
      '',
    ]);
    // The override set above wins over the extracted date.
    expect(lines[1]).toContain(',2020-12-31,');

    const xlsx = await exportAs('XLSX');
    expect(xlsx.name).toBe('Contracts 2021.xlsx');
    const book = new ExcelJS.Workbook();
    await book.xlsx.load(xlsx.bytes as unknown as ArrayBuffer);
    const sheet = book.worksheets[0]!;
    expect((sheet.getRow(1).values as unknown[]).slice(1)).toEqual([
      'Document',
      'Row id',
      'Effective date',
      'Total price',
    ]);
    expect(sheet.getRow(2).getCell(3).value).toEqual(new Date('2020-12-31T00:00:00Z'));
    expect(sheet.getRow(2).getCell(4).value).toBe(shown(rows[0]!.id, 'Total price'));
    expect(typeof sheet.getRow(2).getCell(4).value).toBe('number');
    await eventually(() => page.getByRole('menu', { name: 'export table' }).count()).toBe(0);
  });

  it('cancels a run still in flight: the run ends CANCELED and its cells go back to blank', async () => {
    // No worker: the run's cells stay queued until it is canceled.
    await worker!.stop();
    worker = null;
    await page.getByTestId('run-table').click();
    // The overridden cell is not run again.
    await eventually(() => page.getByTestId('preview-cells').textContent()).toBe('3');
    await page.getByTestId('confirm-run').click();
    const live = page.locator('[data-testid=run][data-status=IN_PROGRESS]');
    await live.waitFor();
    await eventually(() => page.locator('td[data-status=IN_QUEUE]').count()).toBe(3);
    expect(await live.textContent()).toMatch(/0 \/ 3 cells, 3 pending/);
    await live.getByTestId('cancel-run').click();
    await eventually(() => page.locator('[data-testid=run]').first().getAttribute('data-status')).toBe(
      'CANCELED',
    );
    await eventually(() => page.locator('td[data-status=NOT_STARTED]').count()).toBe(3);
    const runs: Json[] = await a.must('GET', `/tables/${tableId}/runs`);
    expect(runs.filter((r) => r.status === 'CANCELED')).toHaveLength(1);
    expect(runs.find((r) => r.status === 'CANCELED')).toMatchObject({ pendingCells: 0, totalCells: 3 });
  });

  it('shows a refusal in plain words, and cells blocked for credits as "Out of credits"', async () => {
    await a.setBudget({ balance: 0 });
    await page.getByTestId('run-table').click();
    await page.getByTestId('confirm-run').click();
    const alert = page.getByRole('dialog').getByRole('alert');
    await alert.waitFor();
    expect(await alert.textContent()).toMatch(/Not enough credits/);
    await page.getByRole('dialog').getByRole('button', { name: 'Cancel' }).click();

    await a.setBudget({ balance: 1 });
    startWorker();
    await page.getByTestId('run-table').click();
    await page.getByTestId('confirm-run').click();
    await eventually(() => page.getByTestId('block-reason').allTextContents(), 60_000).toEqual([
      'Out of credits',
      'Out of credits',
      'Out of credits',
    ]);
    await until('the run to end', async () => {
      const runs: Json[] = await a.must('GET', `/tables/${tableId}/runs`);
      return runs.every((r) => ['SUCCESS', 'ERROR', 'CANCELED'].includes(r.status)) ? true : undefined;
    });
  }, 120_000);

  it('searches pages by text: thumbnails with scores, highest first, a page opens; a credit is spent', async () => {
    await a.setBudget({ balance: 10 });
    await page.getByRole('link', { name: 'Search' }).click();
    await page.getByLabel('search text').fill('Which agreement is governed by the laws of Delaware?');
    await page.getByRole('button', { name: 'Search' }).click();
    const results = page.getByTestId('search-results').locator('button.result');
    await eventually(() => results.count(), 30_000).toBe(2);
    const scores = (await page.getByTestId('search-results').locator('.score').allTextContents()).map((t) =>
      Number(t.replace('score ', '')),
    );
    expect(scores).toEqual([...scores].sort((x, y) => y - x));
    expect(scores[0]).toBeGreaterThan(0);
    const thumb = results.first().locator('img');
    await eventually(() => thumb.evaluate((el) => (el as unknown as Img).naturalWidth)).toBeGreaterThan(0);
    expect(await results.first().textContent()).toMatch(/contract-(march|april)\.pdf, p\. 1/);
    await results.first().click();
    const img = page.getByTestId('citation-image');
    await eventually(() => img.evaluate((el) => (el as unknown as Img).naturalWidth)).toBeGreaterThan(0);
    await page.keyboard.press('Escape');
    await eventually(() => page.getByTestId('balance').textContent()).toBe('9');

    // By image: a page image as the query (sent as a data URL) finds that page.
    const items: Json[] = await a.must('GET', `/files/${await fileIdOf('contract-march.pdf')}/items?row=jpg`);
    const jpg = Buffer.from(await (await fetch(items[0]!.share.url)).arrayBuffer());
    await page.getByLabel('search text').fill('');
    await page
      .getByLabel('query image')
      .setInputFiles({ name: 'page.jpg', mimeType: 'image/jpeg', buffer: jpg });
    await page.getByRole('button', { name: 'Search' }).click();
    await eventually(() => page.getByTestId('balance').textContent(), 60_000).toBe('8');
    expect(await results.count()).toBeGreaterThanOrEqual(1);
    expect((await results.allTextContents()).join(' ')).toContain('contract-march.pdf, p. 1');
  });

  let bundleId = '';
  it('creates a bundle of both contracts, then sets its primary and a role', async () => {
    await a.setBudget({ balance: 1000 });
    await page.getByRole('link', { name: 'Bundles' }).click();
    await page.getByLabel('new bundle name').fill('March and April');
    await page.getByText(/Start with documents/).click();
    await page.getByLabel('contract-march.pdf').check();
    await page.getByLabel('contract-april.pdf').check();
    await page.getByRole('button', { name: 'Create bundle' }).click();
    const members = page.getByTestId('members').locator('tbody tr');
    await eventually(() => members.count()).toBe(2);
    bundleId = page.url().split('/').pop()!;
    expect(bundleId).toMatch(/^bndl_/);
    const april = members.filter({ hasText: 'contract-april.pdf' });
    await april.getByLabel('primary document').click();
    await april.getByLabel('role').fill('amendment');
    await april.getByLabel('role').press('Tab');
    await until('the member changes', async () => {
      const { files }: { files: Json[] } = await a.must('GET', `/bundles/${bundleId}`);
      const m = files.find((f) => f.isPrimary);
      return m && m.role === 'amendment' && files.filter((f) => f.isPrimary).length === 1 ? true : undefined;
    });
  });

  it('renders values by type: relative dates, coloured categories, list chips, image regions clipped to their box; facts of a bundle row', async () => {
    // A page with one red picture near the top, for the image column.
    const picture = makePicturePdf([
      {
        lines: ['ACME CORP ANNUAL REPORT 2021', 'Revenue grew in every region.'],
        images: [{ rect: [430, 650, 120, 80], color: [220, 20, 20] }],
      },
    ]);
    const up = await h.upload(ws, { file: { data: picture, name: 'report.pdf' } });
    const job = ((await up.json()) as { data: { id: string; fileId: string } }).data;
    expect((await h.waitJob(ws, job.id, 120_000)).status).toBe('SUCCESS');
    const files: Json[] = await a.must('GET', '/files?limit=100');
    const march = files.find((f) => f.fileName === 'contract-march.pdf')!.id as string;

    const t = await a.table('Rendering');
    const col = async (name: string, prompt: string, outputType: string, config?: unknown) =>
      (await a.column(t, { name, prompt, outputType, ...(config ? { config: JSON.stringify(config) } : {}) }))
        .id;
    const ids = {
      date: await col('Signed', 'What is the effective date?', 'date', { dateDisplay: 'relative' }),
      law: await col('Law', "Which state's law governs the agreement?", 'categorical', {
        categories: ['Delaware', 'New York'],
        categoryColors: { Delaware: '#ffcc00', 'New York': '#99ccff' },
      }),
      parties: await col('Parties', 'Who are the parties to the agreement?', 'list_scalar'),
      logo: await col('Logo', 'The company logo', 'image'),
    };
    await a.fileRow(t, march);
    await a.must('POST', `/tables/${t}/rows`, { subjectType: 'bundle', subjectId: bundleId });
    await a.fileRow(t, job.fileId);
    const started = await a.must('POST', `/tables/${t}/runs`, {});
    await a.waitRun(t, started.run.id, 120_000);

    // The Files page refreshes the names the grid shows.
    await page.getByRole('link', { name: 'Files' }).click();
    await eventually(() => page.getByTestId('file-row').count()).toBe(3);
    await page.goto(`${h.baseUrl}/app/tables/${t}`);
    const at = (row: number, columnId: string) =>
      page.locator(`tbody tr:nth-child(${row + 1}) td[data-testid=cell][data-column-id="${columnId}"]`);
    await at(0, ids.date).waitFor();

    const date = at(0, ids.date).locator('time');
    expect(await date.getAttribute('datetime')).toBe('2021-03-03');
    expect(await date.textContent()).toMatch(/years? ago/);
    const chip = at(0, ids.law).locator('.chip');
    expect(await chip.textContent()).toBe('Delaware');
    expect(
      await chip.evaluate((el) => (globalThis as unknown as InPage).getComputedStyle(el).backgroundColor),
    ).toBe('rgb(255, 204, 0)');
    expect(await at(0, ids.parties).locator('.chip').allTextContents()).toEqual(['Acme Corp', 'Beta LLC']);

    // The picture: a thumbnail clipped to the region is the picture's red, edge to edge.
    const cells: Json[] = await a.cells(t);
    const logo = cells.find(
      (c) => c.columnId === ids.logo && c.status === 'SUCCESS' && c.value?.[0]?.fileId === job.fileId,
    );
    expect(logo?.value[0].box).toHaveLength(4);
    const thumb = at(2, ids.logo).locator('.region-thumb');
    await eventually(() =>
      thumb.evaluate((el) => (globalThis as unknown as InPage).getComputedStyle(el).backgroundImage),
    ).toMatch(/^url\(".*\/v2\/share\/dsx_/);
    await page.waitForTimeout(300);
    const stats = await sharp(await thumb.screenshot()).stats();
    const [r, g, b] = stats.channels.map((c) => c.mean);
    expect(r!).toBeGreaterThan(170);
    expect(g!).toBeLessThan(90);
    expect(b!).toBeLessThan(90);

    // A bundle row's cell shows each document's answer (facts) in its panel.
    await at(1, ids.date).click();
    const facts = page.getByTestId('cell-panel').getByTestId('fact');
    await eventually(() => facts.count()).toBe(2);
    expect((await facts.allTextContents()).join(' ')).toMatch(/amendment/);
    await page.screenshot({ path: path.join(SHOTS, 'grid-types.png'), fullPage: true });
  }, 180_000);

  it('previews a run of the selected rows and of one column; adds a category column with colours', async () => {
    // On the Rendering table: 3 rows (file, bundle, file) × 4 columns.
    await page.locator('tbody tr:nth-child(3) input[type=checkbox]').check();
    await page.getByRole('button', { name: '▶ Run selected rows' }).click();
    await eventually(() => page.getByTestId('preview-cells').textContent()).toBe('4');
    expect(await page.getByRole('dialog').getAttribute('aria-label')).toBe('Run 1 selected row(s)');
    await page.getByRole('dialog').getByRole('button', { name: 'Cancel' }).click();
    await page.getByTitle('run column Logo').click();
    await eventually(() => page.getByTestId('preview-cells').textContent()).toBe('3');
    // 3 cells at rate 4; the bundle of 2 adds no surcharge.
    expect(await page.getByTestId('preview-cost').textContent()).toBe('12');
    await page.getByRole('dialog').getByRole('button', { name: 'Cancel' }).click();

    await page.getByRole('button', { name: '+ Column' }).click();
    const form = page.getByTestId('add-column');
    await form.getByLabel('Name').fill('Risk');
    await form.getByLabel('Question asked of every row').fill('How risky is the agreement?');
    await form.getByLabel('Answer type').selectOption('categorical');
    await form.getByLabel('category 1', { exact: true }).fill('Low');
    await form.getByRole('button', { name: '+ category' }).click();
    await form.getByLabel('category 2', { exact: true }).fill('High');
    await form.getByLabel('colour of category 2').fill('#ff0000');
    await form.getByLabel('Credits per cell').fill('7');
    await form.getByRole('button', { name: 'Add column' }).click();
    await page.locator('th[data-column-id]', { hasText: 'Risk' }).waitFor();
    const tableId2 = page.url().split('/').pop()!;
    const risk = ((await a.must('GET', `/tables/${tableId2}/columns`)) as Json[]).find(
      (c) => c.name === 'Risk',
    )!;
    expect(risk).toMatchObject({ outputType: 'categorical', creditRate: 7 });
    expect(JSON.parse(risk.config)).toEqual({
      categories: ['Low', 'High'],
      categoryColors: { Low: '#dbeafe', High: '#ff0000' },
    });
  });

  it('goes back to the key form, saying why, when the key is revoked', async () => {
    expect((await h.admin('DELETE', `/admin/keys/${ws.keyId}`)).statusCode).toBe(200);
    await page.getByRole('link', { name: 'Tables' }).click();
    await page.getByLabel('API key').waitFor();
    expect(await page.getByRole('alert').textContent()).toMatch(/Your API key was not accepted/);
    expect(await page.evaluate(() => sessionStorage.getItem('folio.apiKey'))).toBeNull();
  });

  it('loaded nothing from another origin and raised no page error or CSP violation', () => {
    expect(offOrigin).toEqual([]);
    expect(pageErrors).toEqual([]);
  });
});
