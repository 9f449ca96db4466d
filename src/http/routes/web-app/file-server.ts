import { createReadStream } from 'node:fs';
import { readFile, stat } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import type { FastifyReply, FastifyRequest } from 'fastify';

/** Where `npm run build:web` (Vite, config web/vite.config.ts) writes the app. */
export const WEB_APP_DIR = fileURLToPath(new URL('../../../../dist/web/', import.meta.url));
/** The path the app is served under; Vite's `base` must agree. */
export const APP_PREFIX = '/app';

/**
 * The app talks only to this origin: scripts and styles are bundled files, page images come
 * from share links on the same origin (the app turns them into relative paths), thumbnails
 * clipped to a region may use blob: or data: URLs. No external origin anywhere.
 */
export const CONTENT_SECURITY_POLICY = [
  "default-src 'self'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self' blob: data:",
  "connect-src 'self'",
  "font-src 'self'",
  "object-src 'none'",
  "base-uri 'none'",
  "form-action 'none'",
  "frame-ancestors 'none'",
].join('; ');

const IMMUTABLE = 'public, max-age=31536000, immutable';

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.map': 'application/json; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.jpg': 'image/jpeg',
  '.webp': 'image/webp',
  '.ico': 'image/x-icon',
  '.woff2': 'font/woff2',
  '.txt': 'text/plain; charset=utf-8',
};
/** Worth compressing: text. The app's script bundle shrinks to about a third. */
const COMPRESSIBLE = new Set(['.html', '.js', '.mjs', '.css', '.json', '.map', '.svg', '.txt']);

const NOT_BUILT =
  'The web app is not built. Run `npm run build:web` (or `npm run setup`), then reload this page.\n';

interface Cached {
  key: string;
  gz: Buffer;
}

/**
 * The handler behind the single-page web app at /app: built files from `root`, hashed assets
 * cached for a year, everything else (index.html, the SPA fallback for client routes)
 * revalidated on every load. A missing build answers 503 in plain words instead of failing the server.
 */
export function appFileServer(root: string) {
  const gzCache = new Map<string, Cached>();

  const securityHeaders = (reply: FastifyReply) =>
    reply
      .header('content-security-policy', CONTENT_SECURITY_POLICY)
      .header('x-content-type-options', 'nosniff')
      .header('referrer-policy', 'no-referrer')
      .header('x-frame-options', 'DENY')
      .header('cross-origin-opener-policy', 'same-origin');

  async function sendFile(request: FastifyRequest, reply: FastifyReply, file: string, cacheControl: string) {
    const info = await stat(file);
    const ext = path.extname(file).toLowerCase();
    const etag = `W/"${info.size.toString(16)}-${Math.floor(info.mtimeMs).toString(16)}"`;
    securityHeaders(reply)
      .header('cache-control', cacheControl)
      .header('content-type', TYPES[ext] ?? 'application/octet-stream')
      .header('etag', etag)
      .header('last-modified', info.mtime.toUTCString());
    if (request.headers['if-none-match'] === etag) return reply.code(304).send();
    if (COMPRESSIBLE.has(ext)) {
      reply.header('vary', 'accept-encoding');
      const accepts = String(request.headers['accept-encoding'] ?? '');
      if (/\bgzip\b/.test(accepts) && info.size > 1024) {
        let cached = gzCache.get(file);
        if (cached?.key !== etag) {
          cached = { key: etag, gz: gzipSync(await readFile(file)) };
          gzCache.set(file, cached);
        }
        return reply.header('content-encoding', 'gzip').send(cached.gz);
      }
    }
    return reply.header('content-length', info.size).send(createReadStream(file));
  }

  /** A real file inside the build folder, or null; never a path outside it. */
  async function builtFile(relative: string): Promise<string | null> {
    if (relative.includes('\0')) return null;
    const file = path.resolve(root, `.${path.posix.normalize(`/${relative}`)}`);
    if (file !== root && !file.startsWith(root + path.sep)) return null;
    try {
      return (await stat(file)).isFile() ? file : null;
    } catch {
      return null;
    }
  }

  async function serve(request: FastifyRequest<{ Params: { '*'?: string } }>, reply: FastifyReply) {
    let relative: string;
    try {
      relative = decodeURIComponent(request.params['*'] ?? '');
    } catch {
      relative = '';
    }
    // Vite names every file under assets/ by its content hash: it can never change.
    if (relative.startsWith('assets/')) {
      const file = await builtFile(relative);
      if (file) return sendFile(request, reply, file, IMMUTABLE);
      return securityHeaders(reply)
        .code(404)
        .type('text/plain; charset=utf-8')
        .send(`No such app file: /app/${relative}\n`);
    }
    const index = await builtFile('index.html');
    if (!index) {
      return securityHeaders(reply)
        .code(503)
        .header('cache-control', 'no-store')
        .type('text/plain; charset=utf-8')
        .send(NOT_BUILT);
    }
    const file = relative === '' || relative === 'index.html' ? index : await builtFile(relative);
    // Anything else is a client route (/app/tables/rev_…): the app itself reads the path.
    return sendFile(request, reply, file ?? index, 'no-cache');
  }

  return serve;
}

export type AppFileHandler = ReturnType<typeof appFileServer>;
