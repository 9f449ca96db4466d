import { randomBytes } from 'node:crypto';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { systemClock } from './clock.ts';
import type { Config } from './config.ts';
import type { Database } from './db/database.ts';
import { repos } from './repos/index.ts';

/**
 * SHARE_SECRET when set; otherwise generated once and kept: in DATA_DIR for the embedded
 * database, in the database itself on PostgreSQL so that every API process signs alike.
 */
export async function resolveShareSecret(config: Config, db: Database): Promise<string> {
  if (config.shareSecret) return config.shareSecret;
  const candidate = randomBytes(32).toString('base64url');
  if (db.kind === 'postgres')
    return repos(db).instanceSettings.getOrInsertSetting('share_secret', candidate, systemClock());
  const file = path.join(config.dataDir, 'share-secret');
  mkdirSync(config.dataDir, { recursive: true });
  try {
    writeFileSync(file, candidate, { flag: 'wx', mode: 0o600 });
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
  }
  return readFileSync(file, 'utf8').trim();
}
