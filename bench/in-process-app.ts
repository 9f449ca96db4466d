import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pino from 'pino';
import { openBlobStore } from '../src/infra/blob/open.ts';
import { type Config, loadConfig } from '../src/infra/config.ts';
import { lockDataDir } from '../src/infra/data-dir-lock.ts';
import type { Database } from '../src/infra/db/database.ts';
import { openDatabase } from '../src/infra/db/open.ts';
import { resolveShareSecret } from '../src/infra/share-secret.ts';
import { serveApi } from '../src/start/api.ts';
import { runWorker } from '../src/start/worker.ts';
import { createTestDatabase } from '../test/helpers/database.ts';
import { freePort } from '../test/helpers/process.ts';

// biome-ignore lint/suspicious/noExplicitAny: API bodies are read loosely in benches.
export type Json = Record<string, any>;

/**
 * The app as `npm start` runs it, in this process: the API and its worker over one database
 * (PGlite in a temp DATA_DIR, or with DATABASE_URL a PostgreSQL schema of its own, dropped at
 * the end), default settings unless `env` says otherwise. `wrapDb` lets a bench time the
 * database calls.
 */
export async function startInProcessApp(
  name: string,
  env: Record<string, string> = {},
  wrapDb: (db: Database) => Database = (db) => db,
) {
  const tmp = mkdtempSync(path.join(os.tmpdir(), `folio-bench-${name}-`));
  const pg = process.env.DATABASE_URL ? await createTestDatabase({ migrate: false }) : null;
  const port = await freePort();
  const admin = 'bench-admin-token-0123456789';
  const config: Config = loadConfig({
    PORT: String(port),
    HOST: '127.0.0.1',
    DATA_DIR: path.join(tmp, 'data'),
    ADMIN_TOKEN: admin,
    LOG_LEVEL: 'warn',
    // Benches poll; the per-key limit is not what they measure.
    RATE_LIMIT_PER_MIN: '0',
    ...(pg?.url ? { DATABASE_URL: pg.url } : {}),
    ...env,
  });
  const unlock = config.databaseUrl ? () => {} : lockDataDir(config.dataDir);
  const rawDb = await openDatabase(config);
  const db = wrapDb(rawDb);
  const booted = {
    config,
    db,
    shareSecret: await resolveShareSecret(config, rawDb),
    blobs: await openBlobStore(config.blob),
    shutdown: async () => {},
  };
  let worker: ReturnType<typeof runWorker> | null = null;
  const app = await serveApi(booted, () => worker?.poke());
  worker = runWorker(booted, pino({ level: 'warn' }));
  const base = `http://127.0.0.1:${port}`;

  async function call(method: string, p: string, body?: unknown, headers: Record<string, string> = {}) {
    const r = await fetch(`${base}${p}`, {
      method,
      headers: { ...(body !== undefined ? { 'content-type': 'application/json' } : {}), ...headers },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const json = (await r.json()) as Json;
    if (r.status !== 200) throw new Error(`${method} ${p}: ${r.status} ${JSON.stringify(json)}`);
    return json.data;
  }

  return {
    config,
    db,
    rawDb,
    app,
    base,
    call,
    adminCall: (method: string, p: string, body?: unknown) =>
      call(method, p, body, { 'x-admin-token': admin }),
    async close() {
      await app.close();
      await worker?.stop();
      await rawDb.close();
      unlock();
      await pg?.drop();
      rmSync(tmp, { recursive: true, force: true });
    },
  };
}
