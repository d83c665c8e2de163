import { QueryFailedError } from 'typeorm';
import { StockError, StoreUnavailableError } from './errors';

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
