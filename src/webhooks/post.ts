import http from 'node:http';
import https from 'node:https';
import { isIP } from 'node:net';
import { performance } from 'node:perf_hooks';
import { checkUrl, pinned, UrlRefusedError } from '../ingest/fetch-url.ts';

export interface PostOutcome {
  /** The receiver's status; null when no answer came (refused, timed out, unreachable). */
  statusCode: number | null;
  /** Why it failed, in words safe to show the workspace (no server paths, no secrets). */
  error: string | null;
  latencyMs: number;
}

/**
 * POSTs a webhook body. The target passes the same address guard as upload URLs (public
 * addresses only, re-checked at each send, connection pinned to the checked address) unless
 * `allowPrivate`. Redirects are not followed: a 3xx is a failed delivery. Any 2xx succeeds.
 */
export async function postWebhook(
  url: string,
  body: string,
  headers: Record<string, string>,
  opts: { timeoutMs: number; allowPrivate: boolean; signal?: AbortSignal },
): Promise<PostOutcome> {
  const started = performance.now();
  const done = (statusCode: number | null, error: string | null): PostOutcome => ({
    statusCode,
    error,
    latencyMs: Math.round(performance.now() - started),
  });
  let target: { url: URL; address: string };
  try {
    target = await checkUrl(url, opts.allowPrivate ? { isAllowedAddress: () => true } : {});
  } catch (err) {
    return done(null, err instanceof UrlRefusedError ? err.message : 'The URL could not be checked.');
  }
  const timeout = AbortSignal.timeout(opts.timeoutMs);
  const signal = opts.signal ? AbortSignal.any([opts.signal, timeout]) : timeout;
  return new Promise<PostOutcome>((resolve) => {
    const lib = target.url.protocol === 'https:' ? https : http;
    const req = lib.request(
      target.url,
      {
        method: 'POST',
        lookup: pinned(target.address),
        signal,
        headers: {
          'content-type': 'application/json',
          'content-length': String(Buffer.byteLength(body)),
          'user-agent': 'Folio-Webhooks/1',
          ...headers,
        },
        servername: isIP(target.url.hostname) ? undefined : target.url.hostname,
      },
      (res) => {
        res.resume();
        res.on('end', () => {
          const code = res.statusCode ?? 0;
          resolve(done(code, code >= 200 && code < 300 ? null : `The endpoint answered HTTP ${code}.`));
        });
        res.on('error', () => resolve(done(res.statusCode ?? null, 'The answer was cut off.')));
      },
    );
    req.on('error', (err: NodeJS.ErrnoException) => {
      if (timeout.aborted) resolve(done(null, `No answer within ${opts.timeoutMs} ms.`));
      else if (signal.aborted) resolve(done(null, 'The delivery was stopped.'));
      else resolve(done(null, `Could not reach the endpoint (${err.code ?? 'connection error'}).`));
    });
    req.end(body);
  });
}
