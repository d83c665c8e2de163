import { QueryFailedError } from 'typeorm';
import { DuplicateIdempotencyKeyError, StockError, StoreUnavailableError } from './errors';

/**
 * Turns a failure of Redis or MySQL into StoreUnavailableError (503) and leaves the library's own
 * errors alone. mysql2 marks its errors with sqlState/fatal; everything else that escapes a strategy
 * came from ioredis (MaxRetriesPerRequestError, "Connection is closed").
 */
export function asStoreError(error: unknown): Error {
  if (error instanceof StockError) return error;
  return new StoreUnavailableError(isMysqlError(error) ? 'mysql' : 'redis', error);
}

function isMysqlError(error: unknown): boolean {
  if (error instanceof QueryFailedError) return true;
  const e = error as { sqlState?: unknown; fatal?: unknown; code?: unknown };
  return e?.sqlState !== undefined || e?.fatal !== undefined || (typeof e?.code === 'string' && e.code.startsWith('PROTOCOL_'));
}

/**
 * mysql2 failures that happen before a statement reaches the server: nothing can have been written.
 * The server's own refusals of a new connection (too many connections, the user's connection limit)
 * come before any statement too.
 */
const NOT_SENT_CODES = new Set(['ECONNREFUSED', 'ENOTFOUND', 'EHOSTUNREACH', 'PROTOCOL_ENQUEUE_AFTER_QUIT', 'PROTOCOL_ENQUEUE_AFTER_FATAL_ERROR', 'POOL_CLOSED', 'ER_CON_COUNT_ERROR', 'ER_USER_LIMIT_REACHED']);
const CLOSED_CONNECTION = /Can't add new command when connection is in closed state/;

/**
 * True when a failed INSERT certainly wrote nothing: refused by the unique index, or never sent. A
 * lost connection or a timeout after sending may have committed; those are not this.
 */
export function definitelyNotWritten(error: unknown): boolean {
  if (error instanceof DuplicateIdempotencyKeyError) return true;
  const cause = ((error as { driverError?: unknown }).driverError ?? error) as { code?: string; message?: string };
  return (cause?.code !== undefined && NOT_SENT_CODES.has(cause.code)) || CLOSED_CONNECTION.test(cause?.message ?? '');
}
