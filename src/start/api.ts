import { buildApp } from '../http/app.ts';
import { boot, exitOnStartupError } from './boot.ts';

/** The HTTP API alone; with DATABASE_URL any number of these can share one PostgreSQL. */
export async function startApi(): Promise<void> {
  const booted = await boot();
  const app = await buildApp({ config: booted.config, db: booted.db, shareSecret: booted.shareSecret });
  let closing = false;
  const stop = async (signal: string) => {
    if (closing) return;
    closing = true;
    app.log.info({ signal }, 'shutting down');
    await app.close().catch(() => {});
    await booted.shutdown();
    process.exit(0);
  };
  process.once('SIGINT', () => void stop('SIGINT'));
  process.once('SIGTERM', () => void stop('SIGTERM'));
  await app.listen({ port: booted.config.port, host: booted.config.host });
}

if (import.meta.main) startApi().catch(exitOnStartupError);
