import type { FastifyError, FastifyInstance, FastifyReply } from 'fastify';
import {
  AppError,
  errors,
  isOutOfStorage,
  isTransientResourceError,
  withoutServerPaths,
} from '../domain/errors.ts';

function send(reply: FastifyReply, status: number, message: string, plain: boolean, extra = {}) {
  reply.code(status);
  // A refused upload leaves its body unread: close the connection rather than read on.
  if (!reply.request.raw.complete) reply.header('connection', 'close');
  if (plain) return reply.type('text/plain; charset=utf-8').send(message);
  return reply.type('application/json; charset=utf-8').send({ success: false, error: message, ...extra });
}

/**
 * A system error the client can act on: a full disk or quota is 507 (nothing was stored,
 * retry once space frees), a machine short of descriptors or memory a 503; both logged
 * whole, answered in one plain sentence with no path in it.
 */
function resourceError(err: unknown): AppError | null {
  if (err instanceof AppError) return null;
  if (isOutOfStorage(err)) return errors.insufficientStorage();
  if (isTransientResourceError(err)) {
    return errors.unavailable(
      'Service unavailable: the server is short of resources right now; retry later.',
    );
  }
  return null;
}

/** The one place where errors become status codes and bodies (interface.md section 7). */
export function registerErrorHandling(app: FastifyInstance): void {
  app.setErrorHandler((raw: FastifyError | AppError, request, reply) => {
    const resource = resourceError(raw);
    if (resource) request.log.error({ err: raw }, 'out of a server resource');
    const err = resource ?? raw;
    if (err instanceof AppError) {
      const cause = (err as { cause?: { code?: string; constraint?: string; table?: string } }).cause;
      // A database error mapped to a client status: which constraint, for whoever reads the logs.
      if (cause?.code)
        request.log.warn(
          { sqlState: cause.code, constraint: cause.constraint, table: cause.table },
          'database error answered as a client error',
        );
      return send(reply, err.status, withoutServerPaths(err.message), err.plain, err.extra);
    }
    // Validation messages name the client's own fields and values, never a server path.
    if ((err as FastifyError).validation) return send(reply, 400, err.message, false);
    const status = (err as FastifyError).statusCode;
    if (status !== undefined && status >= 400 && status < 500) {
      // Fastify's own client errors (bad JSON, body too large, wrong content type).
      return send(
        reply,
        status === 415 || status === 413 ? status : 400,
        withoutServerPaths(err.message),
        false,
      );
    }
    // Anything else is our fault: log it whole, tell the client nothing about it.
    request.log.error({ err }, 'unhandled error');
    return send(reply, 500, 'Internal server error.', false);
  });
  app.setNotFoundHandler((request, reply) =>
    send(reply, 404, `Route ${request.method} ${request.url.split('?')[0]} not found.`, false),
  );
}
