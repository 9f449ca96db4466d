import { existsSync, mkdtempSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isPublicAddress } from '../src/ingest/address-policy.ts';
import { downloadToFile, UrlRefusedError } from '../src/ingest/fetch-url.ts';

// issue 3 item 2 and decisions.md D6: only public addresses, re-checked on every redirect, pinned.
describe('address policy', () => {
  it.each([
    '127.0.0.1',
    '127.255.0.9',
    '0.0.0.0',
    '10.0.0.1',
    '172.16.5.4',
    '172.31.255.255',
    '192.168.1.1',
    '100.64.0.1',
    '169.254.169.254',
    '169.254.0.1',
    '224.0.0.1',
    '255.255.255.255',
    '192.0.2.10',
    '198.18.0.1',
    '240.0.0.1',
    '::1',
    '::',
    'fe80::1',
    'fc00::1',
    'fd12:3456::1',
    'ff02::1',
    '::ffff:127.0.0.1',
    '::ffff:10.0.0.1',
    '::ffff:169.254.169.254',
    '64:ff9b::7f00:1',
    '2002:7f00:1::',
    '2002:a00:1::1',
    '2001:db8::1',
    'not-an-ip',
  ])('refuses %s', (ip) => {
    expect(isPublicAddress(ip)).toBe(false);
  });
  it.each([
    '8.8.8.8',
    '1.1.1.1',
    '93.184.216.34',
    '2606:4700:4700::1111',
    '::ffff:8.8.8.8',
    '2002:808:808::1',
  ])('allows %s', (ip) => {
    expect(isPublicAddress(ip)).toBe(true);
  });
});

describe('downloadToFile', () => {
  let server: http.Server;
  let port: number;
  const hits: { url: string; host: string | undefined }[] = [];
  const dir = mkdtempSync(path.join(os.tmpdir(), 'folio-fetch-'));
  const dest = (name: string) => path.join(dir, name);
  const only127 = (ip: string) => ip === '127.0.0.1';

  beforeAll(async () => {
    server = http.createServer((req, res) => {
      hits.push({ url: req.url!, host: req.headers.host });
      const u = new URL(req.url!, 'http://x');
      if (u.pathname === '/doc.pdf') {
        res.setHeader('content-type', 'application/pdf');
        res.setHeader('content-disposition', "attachment; filename*=UTF-8''r%C3%A9sum%C3%A9.pdf");
        return res.end('%PDF-1.4 hello');
      }
      if (u.pathname === '/redirect') {
        res.statusCode = 302;
        res.setHeader('location', u.searchParams.get('to')!);
        return res.end();
      }
      if (u.pathname === '/loop') {
        res.statusCode = 301;
        res.setHeader('location', '/loop');
        return res.end();
      }
      if (u.pathname === '/big') {
        // No Content-Length: chunked, endless until the client stops reading.
        const chunk = Buffer.alloc(64 * 1024, 1);
        const pump = () => {
          while (res.write(chunk)) {}
        };
        res.on('drain', pump);
        res.on('close', () => res.off('drain', pump));
        return pump();
      }
      if (u.pathname === '/declared-big') {
        res.setHeader('content-length', String(50 * 1024 * 1024));
        return res.end();
      }
      if (u.pathname === '/slow') return setTimeout(() => res.end('late'), 5_000);
      res.statusCode = 404;
      res.end();
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    port = (server.address() as AddressInfo).port;
  });
  afterAll(async () => {
    server.closeAllConnections();
    await new Promise((r) => server.close(r));
  });

  it.each([
    (p: number) => `http://127.0.0.1:${p}/doc.pdf`,
    (p: number) => `http://localhost:${p}/doc.pdf`,
    (p: number) => `http://[::ffff:127.0.0.1]:${p}/doc.pdf`,
    (p: number) => `http://2130706433:${p}/doc.pdf`,
    (p: number) => `http://0x7f.1:${p}/doc.pdf`,
    () => 'http://10.0.0.1/doc.pdf',
    () => 'http://169.254.169.254/latest/meta-data',
    () => 'http://metadata.google.internal/computeMetadata/v1/',
    () => 'ftp://example.com/doc.pdf',
    () => 'file:///etc/passwd',
    () => 'http://user:pass@example.com/doc.pdf',
  ])('refuses internal or non-http addresses without sending a request (%#)', async (make) => {
    const before = hits.length;
    await expect(downloadToFile(make(port), dest('x'), { maxBytes: 1e6 })).rejects.toBeInstanceOf(
      UrlRefusedError,
    );
    expect(hits.length).toBe(before);
    expect(existsSync(dest('x'))).toBe(false);
  });

  it('downloads, hashing and naming the file, when the address is allowed', async () => {
    const f = await downloadToFile(`http://127.0.0.1:${port}/doc.pdf`, dest('ok'), {
      maxBytes: 1e6,
      isAllowedAddress: only127,
    });
    expect(await readFile(f.path, 'utf8')).toBe('%PDF-1.4 hello');
    expect(f).toMatchObject({ size: 14, contentType: 'application/pdf', fileName: 'résumé.pdf' });
    expect(f.sha256).toMatch(/^[0-9a-f]{64}$/);
  });

  it('re-checks every redirect hop', async () => {
    for (const to of [
      `http://127.0.0.2:${port}/doc.pdf`,
      'http://10.1.1.1/doc.pdf',
      'http://[::1]/doc.pdf',
    ]) {
      const url = `http://127.0.0.1:${port}/redirect?to=${encodeURIComponent(to)}`;
      await expect(
        downloadToFile(url, dest('r'), { maxBytes: 1e6, isAllowedAddress: only127 }),
      ).rejects.toThrow(/internal/);
    }
    const ok = `http://127.0.0.1:${port}/redirect?to=${encodeURIComponent('/doc.pdf')}`;
    expect((await downloadToFile(ok, dest('r2'), { maxBytes: 1e6, isAllowedAddress: only127 })).size).toBe(
      14,
    );
    await expect(
      downloadToFile(`http://127.0.0.1:${port}/loop`, dest('l'), {
        maxBytes: 1e6,
        isAllowedAddress: only127,
        maxRedirects: 3,
      }),
    ).rejects.toThrow(/redirects/);
  });

  it('stops at the size limit, declared or streamed, leaving no partial file', async () => {
    await expect(
      downloadToFile(`http://127.0.0.1:${port}/declared-big`, dest('d'), {
        maxBytes: 1024 * 1024,
        isAllowedAddress: only127,
      }),
    ).rejects.toThrow(/larger than 1 MB/);
    await expect(
      downloadToFile(`http://127.0.0.1:${port}/big`, dest('b'), {
        maxBytes: 1024 * 1024,
        isAllowedAddress: only127,
      }),
    ).rejects.toThrow(/larger than 1 MB/);
    expect(existsSync(dest('b'))).toBe(false);
  });

  it('gives up after the time limit', async () => {
    await expect(
      downloadToFile(`http://127.0.0.1:${port}/slow`, dest('s'), {
        maxBytes: 1e6,
        isAllowedAddress: only127,
        timeoutMs: 300,
      }),
    ).rejects.toThrow(/longer than/);
    expect(existsSync(dest('s'))).toBe(false);
  });

  it('connects to the address it checked, not to a second DNS answer', async () => {
    const resolve = async (host: string) => (host === 'public.example' ? ['127.0.0.1'] : []);
    const f = await downloadToFile(`http://public.example:${port}/doc.pdf`, dest('p'), {
      maxBytes: 1e6,
      isAllowedAddress: only127,
      resolve,
    });
    expect(f.size).toBe(14);
    expect(hits.at(-1)?.host).toBe(`public.example:${port}`);
    const mixed = async () => ['127.0.0.1', '10.0.0.5'];
    await expect(
      downloadToFile(`http://mixed.example:${port}/doc.pdf`, dest('m'), {
        maxBytes: 1e6,
        isAllowedAddress: only127,
        resolve: mixed,
      }),
    ).rejects.toBeInstanceOf(UrlRefusedError);
  });
});
