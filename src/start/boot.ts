import { ensureDefaultWorkspace } from '../domain/first-run.ts';
import { openBlobStore } from '../infra/blob/open.ts';
import type { BlobStore } from '../infra/blob/store.ts';
import { systemClock } from '../infra/clock.ts';
import { type Config, ConfigError, loadConfig } from '../infra/config.ts';
import { DataDirLockedError, lockDataDir } from '../infra/data-dir-lock.ts';
import type { Database } from '../infra/db/database.ts';
import { openDatabase } from '../infra/db/open.ts';
import { resolveShareSecret } from '../infra/share-secret.ts';

export interface Booted {
  config: Config;
  db: Database;
  shareSecret: string;
  blobs: BlobStore;
  /** Closes the database and gives up DATA_DIR. */
  shutdown(): Promise<void>;
}

/** Settings, the DATA_DIR lock (embedded only), the database and its schema. */
export async function boot(env: NodeJS.ProcessEnv = process.env): Promise<Booted> {
  const config = loadConfig(env);
  const release = config.databaseUrl ? () => {} : lockDataDir(config.dataDir);
  let db: Database;
  try {
    db = await openDatabase(config);
  } catch (err) {
    release();
    throw err;
  }
  const shareSecret = await resolveShareSecret(config, db);
  if (!config.databaseUrl) {
    const first = await ensureDefaultWorkspace(db, config.initialCredits, systemClock());
    if (first) printFirstRun(config, first);
  }
  return {
    config,
    db,
    shareSecret,
    blobs: await openBlobStore(config.blob),
    async shutdown() {
      await db.close().catch(() => {});
      release();
    },
  };
}

/** Printed once, to the terminal only: the logger never sees the key. */
function printFirstRun(
  config: Config,
  first: NonNullable<Awaited<ReturnType<typeof ensureDefaultWorkspace>>>,
): void {
  const base = config.publicUrl;
  process.stdout.write(
    [
      '',
      `Folio first start: created workspace "default" (${first.workspaceId}) with ${first.credits} credits.`,
      'Its Read & write API key is shown only this once; keep it:',
      '',
      `  FOLIO_API_KEY=${first.key}`,
      '',
      `Try: curl -H "x-api-key: ${first.key}" ${base}/v2/workspaces/${first.workspaceId}/tables`,
      '',
    ].join('\n'),
  );
}

/** Startup failures a user can fix print one clear message, not a stack trace. */
export function exitOnStartupError(err: unknown): never {
  if (err instanceof ConfigError || err instanceof DataDirLockedError) {
    process.stderr.write(`folio: ${err.message}\n`);
  } else {
    process.stderr.write(`folio: failed to start: ${(err as Error)?.stack ?? String(err)}\n`);
  }
  process.exit(1);
}

/** SIGINT/SIGTERM: finish in-flight work politely, then exit 0; a second signal exits at once. */
export function onShutdown(log: { info(obj: object, msg: string): void }, close: () => Promise<void>): void {
  let closing = false;
  const handler = (signal: string) => {
    if (closing) process.exit(1);
    closing = true;
    log.info({ signal }, 'shutting down');
    close()
      .catch(() => {})
      .finally(() => process.exit(0));
  };
  process.on('SIGINT', () => handler('SIGINT'));
  process.on('SIGTERM', () => handler('SIGTERM'));
}
