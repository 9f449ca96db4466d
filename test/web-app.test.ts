import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import Fastify from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { App, AppContext } from '../src/http/context.ts';
import { CONTENT_SECURITY_POLICY, registerWebAppRoutes } from '../src/http/routes/web-app/index.ts';

// Issue 8: serving the single-page app at /app (caching, CSP, SPA fallback, a missing build).
// These use a small stand-in build; test/e2e-app.test.ts checks the real one in a browser.
async function serve(dir: string): Promise<App> {
  const app = Fastify({
    logger: false,
    routerOptions: { ignoreTrailingSlash: true },
  }).withTypeProvider<TypeBoxTypeProvider>() as unknown as App;
  await registerWebAppRoutes(app, {} as AppContext, { dir });
  await app.ready();
  return app;
}

describe('web app serving (issue 8)', () => {
  let dir: string;
  let app: App;
  const script = `console.log(${JSON.stringify('x'.repeat(4000))});\n`;

  beforeAll(async () => {
    dir = mkdtempSync(path.join(os.tmpdir(), 'folio-web-'));
    mkdirSync(path.join(dir, 'assets'));
    writeFileSync(path.join(dir, 'index.html'), '<!doctype html><title>Folio</title><div id="root"></div>');
    writeFileSync(path.join(dir, 'assets', 'index-AbC123.js'), script);
    writeFileSync(path.join(dir, 'robots.txt'), 'User-agent: *\n');
    app = await serve(dir);
  });
  afterAll(() => app?.close());

  it('serves index.html at /app and /app/ with no-cache and a strict CSP naming no external origin', async () => {
    for (const url of ['/app', '/app/', '/app/index.html']) {
      const r = await app.inject({ url });
      expect(r.statusCode, url).toBe(200);
      expect(r.headers['content-type']).toBe('text/html; charset=utf-8');
      expect(r.headers['cache-control']).toBe('no-cache');
      expect(r.body).toContain('<div id="root">');
      const csp = String(r.headers['content-security-policy']);
      expect(csp).toBe(CONTENT_SECURITY_POLICY);
      expect(csp).toContain("default-src 'self'");
      expect(csp).toContain("img-src 'self' blob: data:");
      expect(csp).toContain("script-src 'self'");
      expect(csp).not.toMatch(/https?:|\*|unsafe-inline|unsafe-eval/);
      expect(r.headers['x-content-type-options']).toBe('nosniff');
      expect(r.headers['referrer-policy']).toBe('no-referrer');
    }
  });

  it('answers client routes under /app with index.html (SPA fallback)', async () => {
    for (const url of ['/app/tables', '/app/tables/rev_abc', '/app/files?x=1', '/app/bundles/bndl_1/']) {
      const r = await app.inject({ url });
      expect(r.statusCode, url).toBe(200);
      expect(r.headers['cache-control']).toBe('no-cache');
      expect(r.body).toContain('<title>Folio</title>');
    }
  });

  it('serves hashed assets for a year, immutable; a missing asset is 404, not the page', async () => {
    const r = await app.inject({ url: '/app/assets/index-AbC123.js' });
    expect(r.statusCode).toBe(200);
    expect(r.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(r.headers['content-type']).toBe('text/javascript; charset=utf-8');
    expect(r.body).toBe(script);
    const missing = await app.inject({ url: '/app/assets/index-Gone.js' });
    expect(missing.statusCode).toBe(404);
    expect(missing.headers['content-type']).toMatch(/^text\/plain/);
  });

  it('serves other built files revalidated; compresses text when asked; answers 304 to a matching etag', async () => {
    const robots = await app.inject({ url: '/app/robots.txt' });
    expect(robots.statusCode).toBe(200);
    expect(robots.headers['cache-control']).toBe('no-cache');
    expect(robots.body).toBe('User-agent: *\n');

    const gz = await app.inject({
      url: '/app/assets/index-AbC123.js',
      headers: { 'accept-encoding': 'gzip' },
    });
    expect(gz.headers['content-encoding']).toBe('gzip');
    expect(gz.rawPayload.length).toBeLessThan(script.length / 4);
    expect(gz.headers.vary).toBe('accept-encoding');

    const first = await app.inject({ url: '/app' });
    const again = await app.inject({ url: '/app', headers: { 'if-none-match': String(first.headers.etag) } });
    expect(again.statusCode).toBe(304);
    expect(again.body).toBe('');
  });

  it('never serves a file outside the build folder', async () => {
    for (const url of [
      '/app/..%2f..%2fpackage.json',
      '/app/%2e%2e/%2e%2e/package.json',
      '/app/assets/..%2f..%2f..%2fetc%2fpasswd',
      '/app/%00',
    ]) {
      const r = await app.inject({ url });
      expect([200, 400, 404], url).toContain(r.statusCode);
      expect(r.body, url).not.toMatch(/"dependencies"|root:x:0/);
    }
  });

  it('leads / to the app', async () => {
    const r = await app.inject({ url: '/' });
    expect(r.statusCode).toBe(302);
    expect(r.headers.location).toBe('/app/');
  });

  it('answers 503 in plain words when the app is not built, and keeps serving', async () => {
    const empty = await serve(mkdtempSync(path.join(os.tmpdir(), 'folio-web-empty-')));
    try {
      for (const url of ['/app', '/app/tables/rev_x']) {
        const r = await empty.inject({ url });
        expect(r.statusCode).toBe(503);
        expect(r.headers['content-type']).toBe('text/plain; charset=utf-8');
        expect(r.headers['cache-control']).toBe('no-store');
        expect(r.body).toContain('npm run build:web');
      }
      expect((await empty.inject({ url: '/app/assets/x.js' })).statusCode).toBe(404);
    } finally {
      await empty.close();
    }
  });
});
