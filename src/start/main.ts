import { serveApi } from './api.ts';
import { boot, exitOnStartupError, onShutdown } from './boot.ts';
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
    onShutdown(app.log, async () => {
      await app.close();
      await worker?.stop();
      await booted.shutdown();
    });
  })
  .catch(exitOnStartupError);
