import type { FastifyBaseLogger as Logger } from 'fastify';
import { ensureDefaultWorkspace } from '../domain/first-run.ts';
import type { App } from '../http/context.ts';
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

/** Past the grace, handing work back and closing the database get this long before the process gives up. */
const CLOSE_MARGIN_MS = 30_000;

type ShutdownLog = Pick<Logger, 'info' | 'warn' | 'error'>;

/**
 * SIGINT/SIGTERM: finish in-flight work politely (bounded by SHUTDOWN_GRACE_MS, see `close`),
 * then exit 0; a second signal exits 1 at once, and so does a close still hanging well past
 * the grace (a stuck database), rather than never exiting.
 */
export function onShutdown(log: ShutdownLog, graceMs: number, close: () => Promise<void>): void {
  let closing = false;
  const handler = (signal: string) => {
    if (closing) {
      log.warn({ signal }, 'second signal: exiting now');
      process.exit(1);
    }
    closing = true;
    log.info({ signal, graceMs }, 'shutting down: no new connections or work; finishing what is in flight');
    setTimeout(() => {
      log.error({ graceMs }, 'shutdown did not finish in time: exiting');
      process.exit(1);
    }, graceMs + CLOSE_MARGIN_MS).unref();
    close()
      .then(
        () => log.info({}, 'shut down'),
        (err) => log.error({ err }, 'shutting down failed part-way'),
      )
      .finally(() => process.exit(0));
  };
  process.on('SIGINT', () => handler('SIGINT'));
  process.on('SIGTERM', () => handler('SIGTERM'));
}

/**
 * Stops the HTTP server politely: the listener closes at once (new connections are refused),
 * requests in flight get `graceMs` to finish (their responses close their connections, see
 * plugins/drain.ts, and idle keep-alive connections are closed as they appear), then any
 * connection still open is cut.
 */
export async function closeHttp(app: App, graceMs: number, log: ShutdownLog): Promise<void> {
  const closed = app.close();
  const reap = setInterval(() => app.server.closeIdleConnections(), 100);
  const cut = setTimeout(() => {
    log.warn({ graceMs }, 'requests still in flight after the grace: closing their connections');
    app.server.closeAllConnections();
  }, graceMs);
  try {
    await closed;
  } finally {
    clearInterval(reap);
    clearTimeout(cut);
  }
}
