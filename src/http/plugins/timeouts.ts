import type { ServerOptions } from 'node:http';
import { Socket } from 'node:net';
import type { FastifyBaseLogger, FastifyReply, FastifyRequest } from 'fastify';
import type { Config } from '../../infra/config.ts';
import type { App, AppContext } from '../context.ts';

export const REQUEST_TIMEOUT_MESSAGE = 'Request timeout: the request body did not arrive in time.';

/** The idle check runs this many times per idle period, so a stall is cut within 1.25 periods. */
const IDLE_STEPS = 4;

/**
 * Node's own limits on receiving a request (issue 15 F5): the headers within
 * REQUEST_BODY_TIMEOUT_MS, the whole request within UPLOAD_TIMEOUT_MS. Past either, Node
 * raises a client error on which Fastify answers 408 and destroys the connection.
 * Keep-alive stays Fastify's 72 s, above the usual 60 s idle timeout of load balancers.
 */
export function serverTimeouts(config: Config): { requestTimeout: number; http: ServerOptions } {
  const total = config.uploadTimeoutMs;
  // Node refuses a headers timeout longer than the request timeout.
  const headers = total > 0 ? Math.min(config.requestBodyTimeoutMs, total) : config.requestBodyTimeoutMs;
  return { requestTimeout: total, http: { requestTimeout: total, headersTimeout: headers } };
}

/**
 * Request bodies that stop arriving (issue 15 F5). A body that receives no byte for
 * REQUEST_IDLE_TIMEOUT_MS (while nothing is waiting on us to read it), or a body other than
 * a multipart upload that is not whole after REQUEST_BODY_TIMEOUT_MS, answers 408 in plain
 * text and the connection closes. The closed connection aborts the request stream, so the
 * handler reading it stops and removes whatever it spooled. A slow upload that keeps
 * moving is bounded only by UPLOAD_TIMEOUT_MS.
 */
export function registerBodyTimeouts(app: App, ctx: AppContext): void {
  const { requestIdleTimeoutMs: idleMs, requestBodyTimeoutMs: bodyMs } = ctx.config;
  if (idleMs === 0 && bodyMs === 0) return;
  app.addHook('onRequest', (request, reply, done) => {
    watchBody(request, reply, idleMs, isUpload(request) ? 0 : bodyMs);
    done();
  });
}

/**
 * After the 408, the aborted handler's own failure ("Promise errored, but reply.sent = true
 * was set", "Reply was already sent") is expected: logged at debug, not as an error.
 */
function demoted(log: FastifyBaseLogger): FastifyBaseLogger {
  const child = log.child({ afterTimeout: true });
  const debug = child.debug.bind(child);
  return Object.assign(Object.create(child) as FastifyBaseLogger, {
    fatal: debug,
    error: debug,
    warn: debug,
  });
}

function isUpload(request: FastifyRequest): boolean {
  return /^multipart\/form-data/i.test(request.headers['content-type'] ?? '');
}

function declaresBody(request: FastifyRequest): boolean {
  const { headers } = request.raw;
  return headers['transfer-encoding'] !== undefined || Number(headers['content-length'] ?? 0) > 0;
}

function watchBody(request: FastifyRequest, reply: FastifyReply, idleMs: number, totalMs: number): void {
  const raw = request.raw;
  const socket = raw.socket;
  // Injected requests (tests) have no socket to wait on.
  if (raw.complete || !(socket instanceof Socket) || !declaresBody(request)) return;

  let lastRead = socket.bytesRead;
  let quietSteps = 0;
  const idle =
    idleMs > 0
      ? setInterval(
          () => {
            if (raw.complete) return stop();
            const read = socket.bytesRead;
            // Bytes buffered and unread mean we are the slow side: not the client's stall.
            if (read !== lastRead || raw.readableLength > 0) {
              lastRead = read;
              quietSteps = 0;
            } else if (++quietSteps >= IDLE_STEPS) {
              expire('idle');
            }
          },
          Math.max(1, Math.floor(idleMs / IDLE_STEPS)),
        )
      : undefined;
  const total = totalMs > 0 ? setTimeout(() => expire('body'), totalMs) : undefined;
  idle?.unref();
  total?.unref();

  function stop() {
    clearInterval(idle);
    clearTimeout(total);
    raw.off('end', stop);
    raw.off('close', stop);
    reply.raw.off('close', stop);
  }
  function expire(which: 'idle' | 'body') {
    stop();
    if (raw.complete || socket.destroyed) return;
    request.log.info({ timeout: which }, 'request body timed out: answering 408 and closing');
    if (reply.sent || reply.raw.headersSent) {
      // A response under way: Node aborts the unfinished request when its socket goes.
      socket.destroy();
      return;
    }
    // Node no longer aborts a request whose response has finished, so once the connection
    // is closed the unread body is failed here: whoever reads it (the JSON parser, the
    // multipart reader spooling an upload) stops and cleans up.
    socket.once('close', () => {
      if (raw.destroyed) return;
      request.log = reply.log = demoted(reply.log);
      raw.on('error', () => {});
      raw.destroy(Object.assign(new Error(REQUEST_TIMEOUT_MESSAGE), { statusCode: 408 }));
    });
    reply
      .code(408)
      .header('connection', 'close')
      .type('text/plain; charset=utf-8')
      .send(REQUEST_TIMEOUT_MESSAGE);
  }
  raw.once('end', stop);
  raw.once('close', stop);
  reply.raw.once('close', stop);
}
