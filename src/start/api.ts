import './lean-heap.ts';
import { buildApp } from '../http/app.ts';
import type { App } from '../http/context.ts';
import { type Clock, systemClock } from '../infra/clock.ts';
import { logSlowQueries } from '../infra/logger.ts';
import { type Booted, boot, closeHttp, exitOnStartupError, onShutdown } from './boot.ts';

/** The HTTP API; with DATABASE_URL any number of these can share one PostgreSQL. */
export async function serveApi(
  booted: Booted,
  notifyWork: () => void = () => {},
  now: Clock = systemClock,
): Promise<App> {
  const { config, db, shareSecret, blobs } = booted;
  const app = await buildApp({ config, db, shareSecret, blobs, notifyWork, now });
  logSlowQueries(config.slowQueryMs, app.log);
  await app.listen({ port: config.port, host: config.host });
  return app;
}

if (import.meta.main) {
  boot()
    .then(async (booted) => {
      const app = await serveApi(booted);
      const grace = booted.config.shutdownGraceMs;
      onShutdown(app.log, grace, async () => {
        await closeHttp(app, grace, app.log);
        await booted.shutdown();
      });
    })
    .catch(exitOnStartupError);
}
