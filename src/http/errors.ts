import type { FastifyError, FastifyInstance, FastifyReply } from 'fastify';
import { AppError } from '../domain/errors.ts';

function send(reply: FastifyReply, status: number, message: string, plain: boolean, extra = {}) {
  reply.code(status);
  // A refused upload leaves its body unread: close the connection rather than read on.
  if (!reply.request.raw.complete) reply.header('connection', 'close');
  if (plain) return reply.type('text/plain; charset=utf-8').send(message);
  return reply.type('application/json; charset=utf-8').send({ success: false, error: message, ...extra });
}

/** The one place where errors become status codes and bodies (interface.md section 7). */
export function registerErrorHandling(app: FastifyInstance): void {
  app.setErrorHandler((err: FastifyError | AppError, request, reply) => {
    if (err instanceof AppError) {
      const cause = (err as { cause?: { code?: string; constraint?: string; table?: string } }).cause;
      // A database error mapped to a client status: which constraint, for whoever reads the logs.
      if (cause?.code)
        request.log.warn(
          { sqlState: cause.code, constraint: cause.constraint, table: cause.table },
          'database error answered as a client error',
        );
      return send(reply, err.status, err.message, err.plain, err.extra);
    }
    if ((err as FastifyError).validation) return send(reply, 400, err.message, false);
    const status = (err as FastifyError).statusCode;
    if (status !== undefined && status >= 400 && status < 500) {
      // Fastify's own client errors (bad JSON, body too large, wrong content type).
      return send(reply, status === 415 || status === 413 ? status : 400, err.message, false);
    }
    // Anything else is our fault: log it whole, tell the client nothing about it.
    request.log.error({ err }, 'unhandled error');
    return send(reply, 500, 'Internal server error.', false);
  });
  app.setNotFoundHandler((request, reply) =>
    send(reply, 404, `Route ${request.method} ${request.url.split('?')[0]} not found.`, false),
  );
}
