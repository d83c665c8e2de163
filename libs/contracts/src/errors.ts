/** Machine-readable error codes; every 4xx/5xx body carries one. */
export const ERROR_CODES = [
  'validation_failed',
  'unknown_strategy',
  'product_not_found',
  'run_not_found',
  'strategy_mismatch',
  'stock_not_seeded',
  'sold_out',
  'conflict',
  'idempotency_key_reused',
  'lock_timeout',
  'lock_lost',
  'store_unavailable',
  'payload_too_large',
  'malformed_json',
  'unsupported_media_type',
  'not_found',
  'internal_error',
] as const;

export type ErrorCode = (typeof ERROR_CODES)[number];

export interface ErrorBody {
  statusCode: number;
  error: ErrorCode;
  message: string;
  /** The request field at fault, when one is. */
  field?: string;
  /** Every problem found, for validation errors. */
  details?: { field: string; problems: string[] }[];
}
