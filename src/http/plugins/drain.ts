import type { App } from '../context.ts';

/**
 * Graceful shutdown (README "Shutdown"): once `app.close()` begins, the listener stops taking
 * connections and Fastify answers requests that still arrive on open connections 503; the
 * requests already in flight finish, and their responses say `Connection: close`, so a
 * keep-alive client does not send another request down a connection about to close, and the
 * drain does not wait for idle keep-alive connections to time out.
 */
export function registerDrain(app: App): void {
  let draining = false;
  app.addHook('preClose', (done) => {
    draining = true;
    done();
  });
  app.addHook('onSend', async (_request, reply) => {
    if (draining && !reply.raw.headersSent) reply.header('connection', 'close');
  });
}
