import './lean-heap.ts';
import { serveApi } from './api.ts';
import { boot, closeHttp, exitOnStartupError, onShutdown } from './boot.ts';
import { runWorker } from './worker.ts';

/**
 * `npm start`: the API and a worker in one process (the only way with the embedded
 * database, which one process owns). With DATABASE_URL, run `start:api` and `start:worker`
 * separately to scale them apart.
 */
boot()
  .then(async (booted) => {
    let worker: ReturnType<typeof runWorker> | null = null;
    const app = await serveApi(booted, () => worker?.poke());
    worker = runWorker(booted, app.log);
    // README "Shutdown": requests and work in flight drain side by side, each within the grace;
    // the database closes only when both are done.
    const grace = booted.config.shutdownGraceMs;
    onShutdown(app.log, grace, async () => {
      await Promise.all([closeHttp(app, grace, app.log), worker?.stop(grace)]);
      await booted.shutdown();
    });
  })
  .catch(exitOnStartupError);
