import { readFileSync } from 'node:fs';
import path from 'node:path';
import { inspect } from 'node:util';
import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig, SETTINGS } from '../src/infra/config.ts';
import { ROOT } from './helpers/process.ts';

describe('settings', () => {
  it('has working defaults for an empty environment', () => {
    const c = loadConfig({}, '/srv/folio');
    expect(c).toMatchObject({
      port: 8080,
      host: '127.0.0.1',
      dataDir: '/srv/folio/data',
      databaseUrl: null,
      adminToken: null,
      shareSecret: null,
      rateLimitPerMin: 600,
      logLevel: 'info',
      publicUrl: 'http://127.0.0.1:8080',
    });
    expect(Object.isFrozen(c)).toBe(true);
  });

  it('reads every setting', () => {
    const c = loadConfig({
      PORT: '9000',
      HOST: '0.0.0.0',
      DATA_DIR: '/var/lib/folio',
      DATABASE_URL: 'postgres://u@db:5432/folio',
      ADMIN_TOKEN: 'a'.repeat(16),
      SHARE_SECRET: 's'.repeat(32),
      RATE_LIMIT_PER_MIN: '0',
      LOG_LEVEL: 'DEBUG',
      PUBLIC_URL: 'https://folio.example.com/',
    });
    expect(c).toMatchObject({
      port: 9000,
      host: '0.0.0.0',
      dataDir: '/var/lib/folio',
      databaseUrl: 'postgres://u@db:5432/folio',
      rateLimitPerMin: 0,
      logLevel: 'debug',
      publicUrl: 'https://folio.example.com',
    });
  });

  it('reports all bad values at once, by name, without echoing secrets', () => {
    let err: ConfigError | null = null;
    try {
      loadConfig({
        PORT: '70000',
        RATE_LIMIT_PER_MIN: '-1',
        LOG_LEVEL: 'chatty',
        ADMIN_TOKEN: 'short-admin',
        DATABASE_URL: 'mysql://root:hunter2@x/db',
        PUBLIC_URL: 'ftp://x',
      });
    } catch (e) {
      err = e as ConfigError;
    }
    expect(err).toBeInstanceOf(ConfigError);
    expect(err!.problems).toHaveLength(6);
    expect(err!.message).toMatch(/PORT="70000"/);
    expect(err!.message).toMatch(/RATE_LIMIT_PER_MIN="-1"/);
    expect(err!.message).toMatch(/LOG_LEVEL="chatty"/);
    expect(err!.message).toMatch(/ADMIN_TOKEN must be at least 16/);
    expect(err!.message).not.toContain('short-admin');
    expect(err!.message).not.toContain('hunter2');
  });

  it('D5, D6: model-server base URLs must be http(s) without credentials, named and never echoed', () => {
    let err: ConfigError | null = null;
    try {
      loadConfig({
        ENGINE: 'openai',
        OPENAI_MODEL: 'm',
        OPENAI_BASE_URL: 'https://user:s3cret-pass@llm.example/v1',
        EMBEDDINGS_BASE_URL: 'file:///etc/passwd',
        EMBEDDINGS_MODEL: 'e',
      });
    } catch (e) {
      err = e as ConfigError;
    }
    expect(err).toBeInstanceOf(ConfigError);
    expect(err!.problems).toHaveLength(2);
    expect(err!.message).toMatch(/OPENAI_BASE_URL must be an http\(s\) URL/);
    expect(err!.message).toMatch(/EMBEDDINGS_BASE_URL must be an http\(s\) URL/);
    expect(err!.message).not.toContain('s3cret-pass');
    const ok = loadConfig({ EMBEDDINGS_BASE_URL: 'http://127.0.0.1:9/v1///', EMBEDDINGS_MODEL: 'e' });
    expect(ok.embeddings?.baseUrl).toBe('http://127.0.0.1:9/v1');
  });

  it('engine settings: local by default, openai with its options, the key never shown', () => {
    expect(loadConfig({}).engine).toEqual({ kind: 'local', scorer: 'learned' });
    expect(loadConfig({ LOCAL_SCORER: 'rules' }).engine).toEqual({ kind: 'local', scorer: 'rules' });
    expect(() => loadConfig({ LOCAL_SCORER: 'magic' })).toThrow(/LOCAL_SCORER must be rules or learned/);
    const key = 'sk-config-test-0123456789';
    const c = loadConfig({
      ENGINE: 'openai',
      OPENAI_BASE_URL: 'http://localhost:11434/v1/',
      OPENAI_API_KEY: key,
      OPENAI_MODEL: 'llama3.1',
      OPENAI_VISION: 'true',
      OPENAI_TIMEOUT_MS: '5000',
      OPENAI_MAX_RETRIES: '0',
      OPENAI_CONCURRENCY: '8',
    });
    expect(c.engine).toMatchObject({
      kind: 'openai',
      baseUrl: 'http://localhost:11434/v1',
      model: 'llama3.1',
      vision: true,
      timeoutMs: 5000,
      maxRetries: 0,
      concurrency: 8,
    });
    expect(c.engine.kind === 'openai' && c.engine.apiKey).toBe(key);
    expect(JSON.stringify(c)).not.toContain(key);
    expect(inspect(c, { depth: 10 })).not.toContain(key);
    const d = loadConfig({ ENGINE: 'openai', OPENAI_MODEL: 'gpt-4o-mini' }).engine;
    expect(d).toMatchObject({ baseUrl: 'https://api.openai.com/v1', vision: false, timeoutMs: 60000 });
    expect(d).toMatchObject({ maxRetries: 3, concurrency: 4, apiKey: null });

    let err: ConfigError | null = null;
    try {
      loadConfig({ ENGINE: 'openai', OPENAI_BASE_URL: 'http://user:pw-secret@host/v1', OPENAI_API_KEY: key });
    } catch (e) {
      err = e as ConfigError;
    }
    expect(err!.problems).toHaveLength(2);
    expect(err!.message).toMatch(/OPENAI_MODEL is required/);
    expect(err!.message).toMatch(/OPENAI_BASE_URL must be/);
    expect(err!.message).not.toContain('pw-secret');
    expect(err!.message).not.toContain(key);
    expect(() => loadConfig({ ENGINE: 'gpt' })).toThrow(/ENGINE="gpt" must be local or openai/);
  });

  it('issue 15 F8: TRUST_PROXY takes true, a number of hops or a list of addresses and ranges, and refuses the rest by name', () => {
    expect(loadConfig({}).trustProxy).toBe(false);
    expect(loadConfig({ TRUST_PROXY: 'true' }).trustProxy).toBe(true);
    expect(loadConfig({ TRUST_PROXY: '2' }).trustProxy).toBe(2);
    expect(loadConfig({ TRUST_PROXY: '10.0.0.0/8, ::1' }).trustProxy).toEqual(['10.0.0.0/8', '::1']);
    expect(() => loadConfig({ TRUST_PROXY: 'everyone' })).toThrow(/TRUST_PROXY must be/);
  });

  it('the README documents every setting', () => {
    const readme = readFileSync(path.join(ROOT, 'README.md'), 'utf8');
    for (const s of SETTINGS) expect(readme, s.name).toMatch(new RegExp(`\\| \`${s.name}\` \\|`));
  });
});
