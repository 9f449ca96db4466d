import path from 'node:path';

/**
 * Settings come only from the environment, are parsed once at boot into a frozen object
 * and passed down; nothing reads process.env at module load.
 */
export interface Config {
  readonly port: number;
  readonly host: string;
  readonly dataDir: string;
  readonly databaseUrl: string | null;
  readonly dbPoolSize: number;
  readonly adminToken: string | null;
  /** null means: generate once and keep it (DATA_DIR file or, on PostgreSQL, the database). */
  readonly shareSecret: string | null;
  readonly publicUrl: string;
  readonly rateLimitPerMin: number;
  readonly logLevel: LogLevel;
  readonly initialCredits: number;
}

export type LogLevel = 'fatal' | 'error' | 'warn' | 'info' | 'debug' | 'trace' | 'silent';
const LOG_LEVELS: readonly LogLevel[] = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'];

export interface SettingDoc {
  readonly name: string;
  readonly defaultValue: string;
  readonly description: string;
}

/** The README's settings table is checked against this list by a test. */
export const SETTINGS: readonly SettingDoc[] = [
  { name: 'PORT', defaultValue: '8080', description: 'TCP port the HTTP API listens on.' },
  {
    name: 'HOST',
    defaultValue: '127.0.0.1',
    description: 'Interface to bind; `0.0.0.0` to accept remote connections.',
  },
  {
    name: 'DATA_DIR',
    defaultValue: './data',
    description: 'Embedded database, page bytes, generated secrets and the process lock.',
  },
  {
    name: 'DATABASE_URL',
    defaultValue: '(unset)',
    description: 'PostgreSQL connection string; unset means the embedded PGlite database in DATA_DIR.',
  },
  {
    name: 'DB_POOL_SIZE',
    defaultValue: '10',
    description: 'Connections per process when DATABASE_URL is set.',
  },
  {
    name: 'ADMIN_TOKEN',
    defaultValue: '(unset)',
    description:
      'Enables the `/admin` API (header `x-admin-token`); unset, every admin route answers 404. At least 16 characters.',
  },
  {
    name: 'SHARE_SECRET',
    defaultValue: '(generated)',
    description:
      'HMAC key for share links, at least 32 characters. Unset: generated once and kept in DATA_DIR (embedded) or in the database (PostgreSQL), so every process agrees.',
  },
  {
    name: 'PUBLIC_URL',
    defaultValue: 'http://HOST:PORT',
    description: 'Base address used in share URLs handed to clients.',
  },
  {
    name: 'RATE_LIMIT_PER_MIN',
    defaultValue: '600',
    description: 'Requests per minute per API key (per process); 0 disables the limit.',
  },
  {
    name: 'LOG_LEVEL',
    defaultValue: 'info',
    description: 'fatal, error, warn, info, debug, trace or silent.',
  },
  {
    name: 'INITIAL_CREDITS',
    defaultValue: '1000',
    description: 'Credits given to the `default` workspace created on first start of the embedded database.',
  },
];

export class ConfigError extends Error {
  readonly problems: readonly string[];
  constructor(problems: readonly string[]) {
    super(`Invalid settings:\n${problems.map((p) => `  - ${p}`).join('\n')}`);
    this.name = 'ConfigError';
    this.problems = problems;
  }
}

type Env = Readonly<Record<string, string | undefined>>;

/** Parses every setting and reports all bad values at once, each by name. */
export function loadConfig(env: Env, cwd = process.cwd()): Config {
  const problems: string[] = [];
  const str = (name: string): string | null => {
    const v = env[name];
    return v === undefined || v.trim() === '' ? null : v.trim();
  };
  const int = (name: string, def: number, min: number, max: number): number => {
    const raw = str(name);
    if (raw === null) return def;
    if (!/^\d+$/.test(raw) || Number(raw) < min || Number(raw) > max) {
      problems.push(`${name}=${JSON.stringify(raw)} must be a whole number from ${min} to ${max}`);
      return def;
    }
    return Number(raw);
  };

  const port = int('PORT', 8080, 0, 65535);
  const host = str('HOST') ?? '127.0.0.1';
  const dataDir = path.resolve(cwd, str('DATA_DIR') ?? './data');
  const dbPoolSize = int('DB_POOL_SIZE', 10, 1, 500);
  const rateLimitPerMin = int('RATE_LIMIT_PER_MIN', 600, 0, 1_000_000);
  const initialCredits = int('INITIAL_CREDITS', 1000, 0, 1_000_000_000);

  const databaseUrl = str('DATABASE_URL');
  if (databaseUrl !== null && !/^postgres(ql)?:\/\//.test(databaseUrl)) {
    // The value may hold a password: name the setting, never echo it.
    problems.push('DATABASE_URL must start with postgres:// or postgresql://');
  }

  const adminToken = str('ADMIN_TOKEN');
  if (adminToken !== null && adminToken.length < 16) {
    problems.push('ADMIN_TOKEN must be at least 16 characters (value not shown)');
  }
  const shareSecret = str('SHARE_SECRET');
  if (shareSecret !== null && shareSecret.length < 32) {
    problems.push('SHARE_SECRET must be at least 32 characters (value not shown)');
  }

  const logLevelRaw = (str('LOG_LEVEL') ?? 'info').toLowerCase();
  let logLevel: LogLevel = 'info';
  if ((LOG_LEVELS as readonly string[]).includes(logLevelRaw)) logLevel = logLevelRaw as LogLevel;
  else problems.push(`LOG_LEVEL=${JSON.stringify(logLevelRaw)} must be one of ${LOG_LEVELS.join(', ')}`);

  let publicUrl =
    str('PUBLIC_URL') ?? `http://${host === '0.0.0.0' || host === '::' ? '127.0.0.1' : host}:${port}`;
  try {
    const u = new URL(publicUrl);
    if (u.protocol !== 'http:' && u.protocol !== 'https:') throw new Error('protocol');
    publicUrl = publicUrl.replace(/\/+$/, '');
  } catch {
    problems.push(`PUBLIC_URL=${JSON.stringify(publicUrl)} must be an http(s) URL`);
  }

  if (problems.length > 0) throw new ConfigError(problems);
  return Object.freeze({
    port,
    host,
    dataDir,
    databaseUrl,
    dbPoolSize,
    adminToken,
    shareSecret,
    publicUrl,
    rateLimitPerMin,
    logLevel,
    initialCredits,
  });
}
