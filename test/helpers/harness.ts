import { randomBytes } from 'node:crypto';
import { mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { InjectOptions, LightMyRequestResponse } from 'fastify';
import pino from 'pino';
import { buildApp } from '../../src/http/app.ts';
import type { App } from '../../src/http/context.ts';
import { openBlobStore } from '../../src/infra/blob/open.ts';
import type { BlobStore } from '../../src/infra/blob/store.ts';
import { type Clock, systemClock } from '../../src/infra/clock.ts';
import { type Config, loadConfig } from '../../src/infra/config.ts';
import type { Database } from '../../src/infra/db/database.ts';
import { type RunningWorker, runWorker } from '../../src/start/worker.ts';
import { createTestDatabase } from './database.ts';
import { freePort } from './process.ts';

export const ADMIN_TOKEN = 'test-admin-token-0123456789';

export interface TestWorkspace {
  id: string;
  /** Read & write key secret. */
  key: string;
  keyId: string;
  readKey: string;
  readKeyId: string;
}

export interface Harness {
  app: App;
  db: Database;
  dbUrl: string | null;
  request(
    method: InjectOptions['method'],
    url: string,
    opts?: { key?: string; body?: unknown; headers?: Record<string, string> },
  ): Promise<LightMyRequestResponse>;
  admin(method: InjectOptions['method'], url: string, body?: unknown): Promise<LightMyRequestResponse>;
  blobs: BlobStore;
  config: Config;
  shareSecret: string;
  /** Base address of the listening server (real HTTP), e.g. for multipart uploads with fetch. */
  baseUrl: string;
  /** POSTs multipart form data for real; a Buffer becomes the `file` field. */
  upload(
    ws: TestWorkspace,
    fields: Record<string, string | { data: Uint8Array; name: string }>,
    key?: string,
  ): Promise<Response>;
  /** Polls the job until it is finished (SUCCESS or ERROR) and returns it. */
  waitJob(ws: TestWorkspace, jobId: string, timeoutMs?: number): Promise<Record<string, unknown>>;
  workspace(input?: { tier?: string; credits?: number; spendCap?: number | null }): Promise<TestWorkspace>;
  close(): Promise<void>;
}

/** A real app on a real, private database; `env` overrides settings as the process would read them. */
export async function startHarness(
  env: Record<string, string> = {},
  options: {
    logger?: NonNullable<Parameters<typeof buildApp>[1]>['logger'];
    worker?: boolean;
    /** The clock of the API and of the worker (when started), for rules that depend on time. */
    now?: Clock;
  } = {},
): Promise<Harness> {
  const tdb = await createTestDatabase();
  const port = await freePort();
  const config = loadConfig({
    PORT: String(port),
    PUBLIC_URL: `http://127.0.0.1:${port}`,
    DATA_DIR: mkdtempSync(path.join(os.tmpdir(), 'folio-test-')),
    ADMIN_TOKEN,
    LOG_LEVEL: 'silent',
    // Polling jobs would trip the limit; the rate-limit test sets its own.
    RATE_LIMIT_PER_MIN: '0',
    ...env,
  });
  const blobs = await openBlobStore(config.blob);
  const shareSecret = randomBytes(32).toString('hex');
  let worker: RunningWorker | null = null;
  const now = options.now ?? systemClock;
  const app = await buildApp(
    { config, db: tdb.db, shareSecret, blobs, notifyWork: () => worker?.poke(), now },
    { logger: options.logger ?? false },
  );
  await app.listen({ port, host: '127.0.0.1' });
  const baseUrl = config.publicUrl;
  if (options.worker) {
    worker = runWorker(
      { config, db: tdb.db, shareSecret, blobs, shutdown: async () => {} },
      pino({ level: 'silent' }),
      now,
    );
  }

  const request: Harness['request'] = (method, url, opts = {}) =>
    app.inject({
      method,
      url,
      headers: { ...(opts.key !== undefined ? { 'x-api-key': opts.key } : {}), ...opts.headers },
      ...(opts.body !== undefined ? { payload: opts.body as object } : {}),
    });
  const admin: Harness['admin'] = (method, url, body) =>
    request(method, url, { body, headers: { 'x-admin-token': ADMIN_TOKEN } });

  return {
    app,
    db: tdb.db,
    dbUrl: tdb.url,
    request,
    admin,
    async workspace(input = {}) {
      const ws = await admin('POST', '/admin/workspaces', { name: 'test', credits: 100, ...input });
      if (ws.statusCode !== 200) throw new Error(`workspace: ${ws.statusCode} ${ws.body}`);
      const id = ws.json().data.id as string;
      const rw = (await admin('POST', `/admin/workspaces/${id}/keys`, { level: 'read_write' })).json().data;
      const ro = (await admin('POST', `/admin/workspaces/${id}/keys`, { level: 'read' })).json().data;
      return { id, key: rw.key, keyId: rw.id, readKey: ro.key, readKeyId: ro.id };
    },
    blobs,
    config,
    shareSecret,
    baseUrl,
    async upload(ws, fields, key) {
      const form = new FormData();
      for (const [name, value] of Object.entries(fields)) {
        if (typeof value === 'string') form.append(name, value);
        else form.append(name, new Blob([value.data]), value.name);
      }
      return fetch(`${baseUrl}/v2/workspaces/${ws.id}/files`, {
        method: 'POST',
        headers: { 'x-api-key': key ?? ws.key },
        body: form,
      });
    },
    async waitJob(ws, jobId, timeoutMs = 60_000) {
      const started = Date.now();
      for (;;) {
        const r = await request('GET', `/v2/workspaces/${ws.id}/jobs/${jobId}`, { key: ws.key });
        const job = r.json().data;
        if (job.status === 'SUCCESS' || job.status === 'ERROR') return job;
        if (Date.now() - started > timeoutMs) throw new Error(`job ${jobId} still ${job.status}`);
        await new Promise((res) => setTimeout(res, 100));
      }
    },
    async close() {
      await worker?.stop();
      await app.close();
      await tdb.drop();
    },
  };
}
