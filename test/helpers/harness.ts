import { randomBytes } from 'node:crypto';
import { mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { InjectOptions, LightMyRequestResponse } from 'fastify';
import { buildApp } from '../../src/http/app.ts';
import type { App } from '../../src/http/context.ts';
import { loadConfig } from '../../src/infra/config.ts';
import type { Database } from '../../src/infra/db/database.ts';
import { createTestDatabase } from './database.ts';

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
  workspace(input?: { tier?: string; credits?: number; spendCap?: number | null }): Promise<TestWorkspace>;
  close(): Promise<void>;
}

/** A real app on a real, private database; `env` overrides settings as the process would read them. */
export async function startHarness(
  env: Record<string, string> = {},
  options: { logger?: NonNullable<Parameters<typeof buildApp>[1]>['logger'] } = {},
): Promise<Harness> {
  const tdb = await createTestDatabase();
  const config = loadConfig({
    DATA_DIR: mkdtempSync(path.join(os.tmpdir(), 'folio-test-')),
    ADMIN_TOKEN,
    LOG_LEVEL: 'silent',
    ...env,
  });
  const app = await buildApp(
    { config, db: tdb.db, shareSecret: randomBytes(32).toString('hex') },
    { logger: options.logger ?? false },
  );
  await app.ready();

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
    async close() {
      await app.close();
      await tdb.drop();
    },
  };
}
