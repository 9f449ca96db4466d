import { randomBytes } from 'node:crypto';
import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeOfficeFile } from './fixtures/office.ts';
import { type Harness, startHarness, type TestWorkspace } from './helpers/harness.ts';

// interface.md 4.6 (upload), 7 (400/402), 8 (tier ceilings, 100 MB request cap); decisions.md D4, D6.
describe('file upload validation (nothing is stored when refused)', () => {
  let h: Harness;
  let ws: TestWorkspace;
  const MB = 1024 * 1024;

  beforeAll(async () => {
    h = await startHarness();
    ws = await h.workspace({ credits: 50 });
  });
  afterAll(() => h.close());

  async function nothingStored(w: TestWorkspace) {
    const list = await h.request('GET', `/v2/workspaces/${w.id}/files`, { key: w.key });
    expect(list.json().total).toBe(0);
    // No bytes kept and no spooled upload left behind.
    if (h.config.blob.kind === 'local')
      expect(await readdir(path.join(h.config.blob.rootDir, 'files')).catch(() => [])).toEqual([]);
    expect(await readdir(path.join(h.config.dataDir, 'tmp')).catch(() => [])).toEqual([]);
  }

  it('refuses a file that is none of the accepted types with 400', async () => {
    const r = await h.upload(ws, { file: { data: randomBytes(5000), name: 'report.pdf' } });
    expect(r.status).toBe(400);
    const body = (await r.json()) as { success: boolean; error: string };
    expect(body.success).toBe(false);
    expect(body.error).toMatch(/type/i);
    await nothingStored(ws);
  });

  it('refuses legacy .xls with a message saying so', async () => {
    const xls = await readFile(await makeOfficeFile('xls'));
    const r = await h.upload(ws, { file: { data: xls, name: 'sheet.xls' } });
    expect(r.status).toBe(400);
    expect(((await r.json()) as { error: string }).error).toMatch(/xls/i);
    await nothingStored(ws);
  });

  it('needs exactly one of file and url', async () => {
    expect((await h.upload(ws, { expiresInDays: '3' })).status).toBe(400);
    const both = await h.upload(ws, {
      file: { data: Buffer.from('%PDF-1.4'), name: 'a.pdf' },
      url: 'https://example.com/a.pdf',
    });
    expect(both.status).toBe(400);
    const json = await h.request('POST', `/v2/workspaces/${ws.id}/files`, {
      key: ws.key,
      body: { url: 'https://example.com/x.pdf' },
    });
    expect(json.statusCode).toBe(400);
    await nothingStored(ws);
  });

  it.each([
    ['loopback', 'http://127.0.0.1:8080/x.pdf'],
    ['localhost', 'http://localhost/x.pdf'],
    ['IPv6 loopback', 'http://[::1]/x.pdf'],
    ['IPv4-mapped IPv6 loopback', 'http://[::ffff:127.0.0.1]/x.pdf'],
    ['private 10/8', 'http://10.1.2.3/x.pdf'],
    ['private 192.168/16', 'http://192.168.0.10/x.pdf'],
    ['cloud metadata', 'http://169.254.169.254/latest/meta-data'],
    ['decimal loopback', 'http://2130706433/x.pdf'],
    ['not http', 'ftp://example.com/x.pdf'],
    ['credentials', 'http://user:pass@example.com/x.pdf'],
  ])('refuses a %s url with 400', async (_label, url) => {
    const r = await h.upload(ws, { url });
    expect(r.status).toBe(400);
    await nothingStored(ws);
  });

  it('refuses a read key with 403 and a zero balance with 402', async () => {
    expect((await h.upload(ws, { url: 'https://example.com/a.pdf' }, ws.readKey)).status).toBe(403);
    const broke = await h.workspace({ credits: 0 });
    const r = await h.upload(broke, { file: { data: Buffer.from('%PDF-1.4\n'), name: 'a.pdf' } });
    expect(r.status).toBe(402);
    expect(await r.json()).toMatchObject({ success: false, balance: 0 });
  });

  it('refuses a file above the tier ceiling with 400 before storing it (starter: 10 MB)', async () => {
    const starter = await h.workspace({ tier: 'starter', credits: 10 });
    const r = await h.upload(starter, { file: { data: Buffer.alloc(11 * MB, 1), name: 'big.pdf' } });
    expect(r.status).toBe(400);
    expect(((await r.json()) as { error: string }).error).toMatch(/10 MB/);
    await nothingStored(starter);
  });

  it('stops a chunked upload without Content-Length as soon as it passes the ceiling', async () => {
    const starter = await h.workspace({ tier: 'starter', credits: 10 });
    const boundary = 'folioboundary';
    const head = Buffer.from(
      `--${boundary}\r\ncontent-disposition: form-data; name="file"; filename="x.pdf"\r\n\r\n%PDF-1.4\n`,
    );
    let sent = 0;
    const chunk = Buffer.alloc(MB, 0x20);
    const body = new ReadableStream({
      pull(controller) {
        if (sent === 0) controller.enqueue(head);
        if (sent >= 40) {
          controller.enqueue(Buffer.from(`\r\n--${boundary}--\r\n`));
          controller.close();
          return;
        }
        sent++;
        controller.enqueue(chunk);
      },
    });
    const r = await fetch(`${h.baseUrl}/v2/workspaces/${starter.id}/files`, {
      method: 'POST',
      headers: { 'x-api-key': starter.key, 'content-type': `multipart/form-data; boundary=${boundary}` },
      body,
      duplex: 'half',
    } as RequestInit);
    expect(r.status).toBe(400);
    expect(sent).toBeLessThan(40); // the server answered before the client sent everything
    await nothingStored(starter);
  });

  it('validates expiresInDays against the tier', async () => {
    const pdf = { data: Buffer.from('%PDF-1.4\n1 0 obj<<>>endobj\n'), name: 'a.pdf' };
    expect((await h.upload(ws, { file: pdf, expiresInDays: 'soon' })).status).toBe(400);
    expect((await h.upload(ws, { file: pdf, expiresInDays: '0' })).status).toBe(400);
    expect((await h.upload(ws, { file: pdf, expiresInDays: '366' })).status).toBe(400); // silver: 365
    const starter = await h.workspace({ tier: 'starter', credits: 10 });
    expect((await h.upload(starter, { file: pdf, expiresInDays: '-1' })).status).toBe(400);
  });
});
