import { mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { createTestDatabase } from './helpers/database.ts';
import { ADMIN_TOKEN } from './helpers/harness.ts';
import { freePort, type Spawned, spawnScript, waitHealthy } from './helpers/process.ts';

// issue 2 acceptance and decisions.md D10 (launch contract), with real processes.
const running: Spawned[] = [];
afterAll(async () => {
  await Promise.all(running.map((s) => s.stop('SIGKILL')));
});

function start(env: Record<string, string>, script = 'src/start/main.ts', args: string[] = []): Spawned {
  const s = spawnScript(script, env, args);
  running.push(s);
  return s;
}

const tmpDir = () => mkdtempSync(path.join(os.tmpdir(), 'folio-proc-'));

describe('npm start on the embedded database', () => {
  const dataDir = tmpDir();
  let port: number;
  let key: string;
  let workspaceId: string;

  it('comes up healthy, honours PORT/HOST/DATA_DIR/ADMIN_TOKEN and prints the default key once', async () => {
    port = await freePort();
    const s = start({ PORT: String(port), HOST: '127.0.0.1', DATA_DIR: dataDir, ADMIN_TOKEN });
    // How long a first start takes is for `bench:ingest` to report; a test asserts no durations.
    await waitHealthy(s, port);
    const out = s.output();
    key = /FOLIO_API_KEY=(\S+)/.exec(out)![1];
    workspaceId = /\((wks_[0-9A-Za-z]{20})\)/.exec(out)![1];

    const tables = await fetch(`http://127.0.0.1:${port}/v2/workspaces/${workspaceId}/tables`, {
      headers: { 'x-api-key': key },
    });
    expect((await tables.json()) as unknown).toEqual({ success: true, total: 0, data: [] });
    const ws = await fetch(`http://127.0.0.1:${port}/admin/workspaces/${workspaceId}`, {
      headers: { 'x-admin-token': ADMIN_TOKEN },
    });
    expect(((await ws.json()) as { data: unknown }).data).toMatchObject({ name: 'default', balance: 1000 });
  });

  it('refuses a second process on the same DATA_DIR with a clear message', async () => {
    const second = start({ PORT: String(await freePort()), DATA_DIR: dataDir });
    expect(await second.exited).toBe(1);
    expect(second.output()).toMatch(/DATA_DIR .* is already in use by process \d+/);
    expect(second.output()).not.toMatch(/\n\s+at /); // a message, not a stack trace
  });

  it('drives the admin API and the public API from the folio CLI', async () => {
    const env = { FOLIO_URL: `http://127.0.0.1:${port}`, ADMIN_TOKEN };
    const cli = (args: string[], extra: Record<string, string> = {}) => {
      const s = start({ ...env, ...extra }, 'bin/folio.js', args);
      return s.exited.then((code) => ({ code, out: s.output() }));
    };
    const created = await cli(['workspace', 'create', '--name', 'cli', '--credits', '7', '--tier', 'gold']);
    expect(created.code).toBe(0);
    const ws = JSON.parse(created.out).data;
    expect(ws).toMatchObject({ name: 'cli', balance: 7, tier: 'gold' });
    const granted = JSON.parse((await cli(['credits', 'grant', ws.id, '3'])).out).data;
    expect(granted.balance).toBe(10);
    const k = JSON.parse((await cli(['key', 'create', ws.id, '--level', 'read'])).out).data;
    expect(k.key).toMatch(/^folio_/);
    const listed = await cli(['tables', 'list', ws.id], { FOLIO_API_KEY: k.key });
    expect(JSON.parse(listed.out)).toEqual({ success: true, total: 0, data: [] });
    const shown = JSON.parse((await cli(['workspace', 'show', ws.id])).out).data;
    expect(shown.balance).toBe(10);
    expect((await cli(['key', 'revoke', k.id])).code).toBe(0);
    const refused = await cli(['tables', 'list', ws.id], { FOLIO_API_KEY: k.key });
    expect(refused.code).toBe(1);
    expect(refused.out).toMatch(/401/);
  });

  it('keeps its data over a restart, prints no new key, and takes over a lock left by a killed process', async () => {
    const first = running[0];
    await first.stop('SIGKILL'); // leaves folio.lock behind
    port = await freePort();
    const again = start({ PORT: String(port), DATA_DIR: dataDir });
    await waitHealthy(again, port);
    expect(again.output()).not.toMatch(/FOLIO_API_KEY/);
    const r = await fetch(`http://127.0.0.1:${port}/v2/workspaces/${workspaceId}/tables`, {
      headers: { 'x-api-key': key },
    });
    expect(r.status).toBe(200);
    expect(await again.stop('SIGTERM')).toBe(0);
  });
});

describe('settings validation at start', () => {
  it('names every bad value and exits 1', async () => {
    const s = start({ PORT: 'eighty', LOG_LEVEL: 'loud', SHARE_SECRET: 'short', DATA_DIR: tmpDir() });
    expect(await s.exited).toBe(1);
    expect(s.output()).toMatch(/PORT="eighty"/);
    expect(s.output()).toMatch(/LOG_LEVEL="loud"/);
    expect(s.output()).toMatch(/SHARE_SECRET must be at least 32/);
    expect(s.output()).not.toContain('short');
  });
});

describe.runIf(process.env.DATABASE_URL)('several processes on one PostgreSQL', () => {
  it('migrate together once, and each sees the writes of the other', async () => {
    // An empty schema: both processes race to migrate it.
    const tdb = await createTestDatabase({ migrate: false });
    const [pa, pb] = [await freePort(), await freePort()];
    const common = { DATABASE_URL: tdb.url!, ADMIN_TOKEN, DATA_DIR: tmpDir() };
    const a = start({ ...common, PORT: String(pa) }, 'src/start/api.ts');
    const b = start({ ...common, PORT: String(pb) }, 'src/start/api.ts');
    await Promise.all([waitHealthy(a, pa), waitHealthy(b, pb)]);
    expect(a.output()).not.toMatch(/FOLIO_API_KEY/); // no default workspace on PostgreSQL

    const post = (port: number, p: string, body: unknown, headers: Record<string, string>) =>
      fetch(`http://127.0.0.1:${port}${p}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', ...headers },
        body: JSON.stringify(body),
      }).then((r) => r.json() as Promise<{ data: Record<string, string> }>);
    const ws = (
      await post(pa, '/admin/workspaces', { name: 'shared', credits: 3 }, { 'x-admin-token': ADMIN_TOKEN })
    ).data;
    const key = (
      await post(
        pb,
        `/admin/workspaces/${ws.id}/keys`,
        { level: 'read_write' },
        { 'x-admin-token': ADMIN_TOKEN },
      )
    ).data.key;
    const table = (await post(pa, `/v2/workspaces/${ws.id}/tables`, { name: 'from A' }, { 'x-api-key': key }))
      .data;
    const seen = await fetch(`http://127.0.0.1:${pb}/v2/workspaces/${ws.id}/tables/${table.id}`, {
      headers: { 'x-api-key': key },
    }).then((r) => r.json() as Promise<{ data: { table: { name: string } } }>);
    expect(seen.data.table.name).toBe('from A');

    const migrations = await tdb.db.query<{ n: number }>('SELECT count(*)::int AS n FROM schema_migrations');
    expect(migrations[0].n).toBeGreaterThan(0);
    await Promise.all([a.stop(), b.stop()]);
    await tdb.drop();
  });
});
