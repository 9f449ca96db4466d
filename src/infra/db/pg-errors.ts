import { AppError, errors } from '../../domain/errors.ts';

/**
 * PostgreSQL errors a client can act on, mapped once for both backends (PGlite and node-postgres
 * both carry the SQLSTATE in `code`). Everything else passes through and stays a 500.
 *
 * - A unique or foreign-key violation that validation did not catch is a race with another
 *   request (two identical creates, a delete in between): 409, and retrying shows the outcome.
 * - A value PostgreSQL cannot store (a NUL byte in text, a number beyond int8, a malformed
 *   literal) is the client's input: 400, never a 500.
 * - A full disk or an exhausted server is temporary: 503.
 */
const CONFLICT: Record<string, string> = {
  '23505':
    'Conflict: another request created the same resource at the same time; read it and retry if needed.',
  '23503': 'Conflict: a resource this request refers to was changed or deleted at the same time; retry.',
  '40001': 'Conflict: the request raced with another one; retry.',
  '40P01': 'Conflict: the request raced with another one; retry.',
};

const BAD_VALUE: Record<string, string> = {
  '22021': 'a text value contains a character that cannot be stored (such as a NUL byte)',
  '22P05': 'a text value contains a character that cannot be stored (such as a NUL byte)',
  '22003': 'a number is out of the range that can be stored',
  '22P02': 'a value is not in the expected format',
  '22007': 'a date or time is not in the expected format',
  '22008': 'a date or time is out of range',
  '22001': 'a text value is too long',
  '54000': 'a value is too large to store',
};

const UNAVAILABLE: Record<string, string> = {
  '53100': 'Service unavailable: the database is out of disk space; retry later.',
  '53200': 'Service unavailable: the database is out of memory; retry later.',
  '53300': 'Service unavailable: the database has too many connections; retry later.',
  '57P03': 'Service unavailable: the database is starting up or shutting down; retry later.',
};

/** The SQLSTATE of a database error, or null for anything else. */
export function sqlState(err: unknown): string | null {
  const code = (err as { code?: unknown } | null)?.code;
  return typeof code === 'string' && /^[0-9A-Z]{5}$/.test(code) ? code : null;
}

export function translateDbError(err: unknown): unknown {
  if (err instanceof AppError) return err;
  const code = sqlState(err);
  if (!code) return err;
  let mapped: AppError | null = null;
  if (CONFLICT[code]) mapped = errors.conflict(CONFLICT[code]);
  else if (BAD_VALUE[code]) mapped = errors.badRequest(`Bad request: ${BAD_VALUE[code]}.`);
  else if (UNAVAILABLE[code]) mapped = errors.unavailable(UNAVAILABLE[code]);
  if (!mapped) return err;
  // Kept for logs: which constraint or statement failed, never shown to the client.
  (mapped as AppError & { cause?: unknown }).cause = err;
  return mapped;
}
