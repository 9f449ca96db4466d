import http from 'node:http';
import type { FastifyBaseLogger as Logger } from 'fastify';
import type { Clock } from '../infra/clock.ts';
import type { Queryable } from '../infra/db/database.ts';
import { enableProcessMetrics } from '../infra/metrics.ts';
import { bearerMatches, scrapeMetrics } from '../infra/metrics-scrape.ts';

const PLAIN = { 'content-type': 'text/plain; charset=utf-8' };

/**
 * A worker process run on its own serves no API, yet its series (ingest pages and jobs,
 * cells, engine latency, credits it captured) live only in its memory: with
 * WORKER_METRICS_PORT (and METRICS_TOKEN) it answers `GET /metrics` on that port, with the
 * same bearer check and text as the API's route, and nothing else (404).
 */
export async function serveWorkerMetrics(opts: {
  db: Queryable;
  host: string;
  port: number;
  token: string;
  clock: Clock;
  log: Pick<Logger, 'error'>;
}): Promise<http.Server> {
  enableProcessMetrics();
  const server = http.createServer((req, res) => {
    if (req.method !== 'GET' || (req.url ?? '').split('?')[0] !== '/metrics') {
      res.writeHead(404, PLAIN).end('Not found.');
      return;
    }
    if (!bearerMatches(req.headers.authorization, opts.token)) {
      res.writeHead(401, PLAIN).end('Unauthorized: a valid Authorization: Bearer token is required.');
      return;
    }
    scrapeMetrics(opts.db, opts.clock()).then(
      ({ contentType, body }) =>
        res.writeHead(200, { 'content-type': contentType, 'cache-control': 'no-store' }).end(body),
      (err) => {
        opts.log.error({ err }, 'metrics scrape failed');
        res.writeHead(500, PLAIN).end('Internal server error.');
      },
    );
  });
  server.headersTimeout = 10_000;
  server.requestTimeout = 30_000;
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(opts.port, opts.host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  return server;
}

/** Stops the listener and drops its connections (a scrape is cheap to retry). */
export function closeWorkerMetrics(server: http.Server): Promise<void> {
  return new Promise((resolve) => {
    server.close(() => resolve());
    server.closeAllConnections();
  });
}
