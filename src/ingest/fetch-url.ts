import { createHash } from 'node:crypto';
import { lookup } from 'node:dns/promises';
import { createWriteStream } from 'node:fs';
import { rm } from 'node:fs/promises';
import http, { type IncomingMessage } from 'node:http';
import https from 'node:https';
import { isIP, type LookupFunction } from 'node:net';
import { Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { isPublicAddress, METADATA_HOSTS } from './address-policy.ts';

/** A user-facing refusal (HTTP 400 at upload time, the job's statusText later). */
export class UrlRefusedError extends Error {}

export interface FetchedFile {
  path: string;
  size: number;
  sha256: string;
  contentType: string | null;
  fileName: string | null;
  finalUrl: string;
}

export interface FetchOptions {
  maxBytes: number;
  /** Whole download, all hops. */
  timeoutMs?: number;
  maxRedirects?: number;
  signal?: AbortSignal;
  /** For tests only: which addresses count as reachable. */
  isAllowedAddress?: (ip: string) => boolean;
  /** For tests only: name resolution. */
  resolve?: (host: string) => Promise<string[]>;
}

const defaultResolve = async (host: string) =>
  (await lookup(host, { all: true, verbatim: true })).map((a) => a.address);

/**
 * Checks a URL and picks the address to connect to: http(s) only, no credentials, every
 * resolved address public (one internal address refuses the whole name).
 */
export async function checkUrl(
  raw: string,
  opts: Pick<FetchOptions, 'isAllowedAddress' | 'resolve'> = {},
): Promise<{ url: URL; address: string }> {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new UrlRefusedError('url is not a valid URL.');
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:')
    throw new UrlRefusedError('url must use http or https.');
  if (url.username || url.password) throw new UrlRefusedError('url must not carry credentials.');
  const host = url.hostname.replace(/^\[|\]$/g, '').toLowerCase();
  if (METADATA_HOSTS.has(host)) throw new UrlRefusedError(`url host ${host} is internal.`);
  const allowed = opts.isAllowedAddress ?? isPublicAddress;
  let addresses: string[];
  if (isIP(host)) addresses = [host];
  else {
    try {
      addresses = await (opts.resolve ?? defaultResolve)(host);
    } catch {
      throw new UrlRefusedError(`url host ${host} cannot be resolved.`);
    }
  }
  if (addresses.length === 0 || !addresses.every(allowed)) {
    throw new UrlRefusedError(
      `url host ${host} is a loopback, private or otherwise internal address; only public addresses are fetched.`,
    );
  }
  return { url, address: addresses[0] };
}

/** Connects to exactly the checked address: no second DNS lookup, so no rebinding window. */
export function pinned(address: string): LookupFunction {
  const family = isIP(address);
  return ((_host: string, options: { all?: boolean }, cb: (...args: unknown[]) => void) => {
    if (options?.all) cb(null, [{ address, family }]);
    else cb(null, address, family);
  }) as LookupFunction;
}

function get(url: URL, address: string, signal: AbortSignal): Promise<IncomingMessage> {
  return new Promise((resolve, reject) => {
    const lib = url.protocol === 'https:' ? https : http;
    const req = lib.get(
      url,
      {
        lookup: pinned(address),
        signal,
        headers: { 'user-agent': 'Folio/0.1', accept: '*/*' },
        servername: isIP(url.hostname) ? undefined : url.hostname,
      },
      resolve,
    );
    req.on('error', reject);
  });
}

/** Streams a public URL to destPath, following redirects (each re-checked), within size and time limits. */
export async function downloadToFile(
  raw: string,
  destPath: string,
  opts: FetchOptions,
): Promise<FetchedFile> {
  const timeout = AbortSignal.timeout(opts.timeoutMs ?? 60_000);
  const signal = opts.signal ? AbortSignal.any([opts.signal, timeout]) : timeout;
  const maxMb = Math.round(opts.maxBytes / 1024 / 1024);
  let current = raw;
  try {
    for (let hop = 0; ; hop++) {
      const { url, address } = await checkUrl(current, opts);
      const res = await get(url, address, signal);
      const status = res.statusCode ?? 0;
      if ([301, 302, 303, 307, 308].includes(status) && res.headers.location) {
        res.resume();
        if (hop >= (opts.maxRedirects ?? 5)) throw new UrlRefusedError('url redirects too many times.');
        current = new URL(res.headers.location, url).toString();
        continue;
      }
      if (status < 200 || status >= 300) {
        res.resume();
        throw new UrlRefusedError(`url answered HTTP ${status} (${url.host}).`);
      }
      if (Number(res.headers['content-length'] ?? 0) > opts.maxBytes) {
        res.destroy();
        throw new UrlRefusedError(`The document at the url is larger than ${maxMb} MB.`);
      }
      const hash = createHash('sha256');
      let size = 0;
      const meter = new Transform({
        transform(chunk: Buffer, _e, done) {
          size += chunk.length;
          if (size > opts.maxBytes)
            return done(new UrlRefusedError(`The document at the url is larger than ${maxMb} MB.`));
          hash.update(chunk);
          done(null, chunk);
        },
      });
      await pipeline(res, meter, createWriteStream(destPath, { mode: 0o600 }), { signal });
      return {
        path: destPath,
        size,
        sha256: hash.digest('hex'),
        contentType: res.headers['content-type'] ?? null,
        fileName: fileNameOf(res.headers['content-disposition'], url),
        finalUrl: url.toString(),
      };
    }
  } catch (err) {
    await rm(destPath, { force: true });
    if (err instanceof UrlRefusedError) throw err;
    if (timeout.aborted)
      throw new UrlRefusedError(
        `Downloading the url took longer than ${Math.round((opts.timeoutMs ?? 60_000) / 1000)} s.`,
      );
    if (opts.signal?.aborted) throw err;
    throw new UrlRefusedError(`Downloading the url failed: ${(err as Error).message}`);
  }
}

function fileNameOf(disposition: string | undefined, url: URL): string | null {
  const star = disposition && /filename\*\s*=\s*(?:UTF-8|utf-8)''([^;]+)/.exec(disposition);
  const plain = disposition && /filename\s*=\s*"?([^";]+)"?/.exec(disposition);
  const last = url.pathname.split('/').filter(Boolean).pop();
  const raw = star?.[1] ?? plain?.[1] ?? last;
  if (!raw) return null;
  try {
    return decodeURIComponent(raw).replace(/[/\\]/g, '_').slice(0, 255);
  } catch {
    return raw.slice(0, 255);
  }
}
