import { mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createTestDatabase, POSTGRES_URL, type TestDatabase } from './database.ts';
import { ADMIN_TOKEN } from './harness.ts';
import { freePort, type Spawned, spawnScript, waitHealthy } from './process.ts';

/**
 * The service as users run it: `npm start` (API and worker in one process) as a child process,
 * on the embedded database in a temporary DATA_DIR, or, when the tests run with DATABASE_URL, on
 * a fresh PostgreSQL schema of its own (migrated by the process at start).
 */
export interface ServerProcess {
  baseUrl: string;
  proc: Spawned;
  /** A new workspace with `credits`, and a Read & write key and a Read key for it. */
  workspace(credits?: number): Promise<{ id: string; key: string; readKey: string }>;
  admin(method: string, url: string, body?: unknown): Promise<Response>;
  stop(): Promise<void>;
}

export async function startServerProcess(env: Record<string, string> = {}): Promise<ServerProcess> {
  const tdb: TestDatabase | null = POSTGRES_URL ? await createTestDatabase({ migrate: false }) : null;
  const port = await freePort();
  const proc = spawnScript('src/start/main.ts', {
    PORT: String(port),
    HOST: '127.0.0.1',
    DATA_DIR: mkdtempSync(path.join(os.tmpdir(), 'folio-server-')),
    ADMIN_TOKEN,
    // Tests poll; the limit has tests of its own.
    RATE_LIMIT_PER_MIN: '0',
    LOG_LEVEL: 'warn',
    ...(tdb?.url ? { DATABASE_URL: tdb.url } : {}),
    ...env,
  });
  await waitHealthy(proc, port);
  const baseUrl = `http://127.0.0.1:${port}`;
  const admin: ServerProcess['admin'] = (method, url, body) =>
    fetch(`${baseUrl}${url}`, {
      method,
      headers: {
        'x-admin-token': ADMIN_TOKEN,
        ...(body !== undefined ? { 'content-type': 'application/json' } : {}),
      },
      body: body !== undefined ? JSON.stringify(body) : undefined,
    });
  return {
    baseUrl,
    proc,
    admin,
    async workspace(credits = 1000) {
      const ws = await admin('POST', '/admin/workspaces', { name: 'test', credits, tier: 'gold' });
      if (ws.status !== 200) throw new Error(`workspace: ${ws.status} ${await ws.text()}`);
      const id = ((await ws.json()) as { data: { id: string } }).data.id;
      const key = async (level: string) =>
        (
          (await (await admin('POST', `/admin/workspaces/${id}/keys`, { level })).json()) as {
            data: { key: string };
          }
        ).data.key;
      return { id, key: await key('read_write'), readKey: await key('read') };
    },
    async stop() {
      const killLater = setTimeout(() => void proc.stop('SIGKILL'), 15_000);
      await proc.stop('SIGTERM');
      clearTimeout(killLater);
      await tdb?.drop();
    },
  };
}
