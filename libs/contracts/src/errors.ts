import type { Locale, Localized } from './locale';

/** Machine-readable error codes; every 4xx/5xx body carries one. */
export const ERROR_CODES = [
  'validation_failed',
  'unknown_strategy',
  'product_not_found',
  'run_not_found',
  'strategy_mismatch',
  'stock_not_seeded',
  /** The run was seeded but Redis no longer holds its stock (restart without persistence, flush). */
  'stock_store_lost',
  'sold_out',
  'conflict',
  'idempotency_key_reused',
  'lock_timeout',
  'lock_lost',
  /** A lock spread over several servers (RedLock's five nodes) reached fewer than a majority of them: it could not be decided, nothing was taken. */
  'lock_unavailable',
  /** The store refused a write with a fencing token lower than one it had seen: the lock had passed to a newer holder. */
  'fenced',
  'store_unavailable',
  'payload_too_large',
  'malformed_json',
  'unsupported_media_type',
  'not_found',
  /** An admin action without Authorization: Bearer <ADMIN_TOKEN>. */
  'unauthorized',
  /** An admin action with a token that is not the lab's. */
  'forbidden',
  /** The run queue is full (RUN_QUEUE_LIMIT waiting runs); nothing was queued. */
  'run_queue_full',
  /** The gateway was reached under a Host it does not serve (DNS rebinding). */
  'misdirected_request',
  /** The instance the gateway picked refused the connection (it died; the launcher restarts it): nothing was delivered. */
  'instance_unavailable',
  /** The instance the gateway picked did not answer in time: the request may still have been carried out (an order placed). */
  'gateway_timeout',
  /** The instance the gateway picked failed mid-request (its connection reset): the request may have been carried out. */
  'bad_gateway',
  /** A request target that is not a URL the lab takes: a bad percent-escape (%zz), a '..' segment through the gateway. */
  'malformed_url',
  /** A path segment longer than the router takes (Fastify's maxParamLength, 100 characters). */
  'uri_too_long',
  /** Request headers larger than Node's HTTP parser reads (16 KiB in all). */
  'header_too_large',
  /** A request that did not arrive in full within the server's request timeout. */
  'request_timeout',
  /** Bytes that Node's HTTP parser cannot read as an HTTP/1.1 request. */
  'malformed_request',
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

/**
 * An ErrorBody as its source writes it: every text a user reads in every language. The client gets it
 * in the one it asks for (errorBodyIn); the machine `error` code is the same in all of them.
 */
export interface LocalizedErrorBody extends Omit<ErrorBody, 'message' | 'details'> {
  message: Localized;
  details?: { field: string; problems: Localized[] }[];
}

/** The body a client reads, in its language. */
export function errorBodyIn(body: LocalizedErrorBody, locale: Locale): ErrorBody {
  const { message, details, ...rest } = body;
  return { ...rest, message: message[locale], ...(details ? { details: details.map(({ field, problems }) => ({ field, problems: problems.map((p) => p[locale]) })) } : {}) };
}

/** What Fastify hands its `frameworkErrors` option: its routing errors, before any hook has run. */
export interface FrameworkError {
  code?: string;
  message: string;
}

/**
 * The lab's body for an error Fastify raises while routing (its `frameworkErrors`, which otherwise
 * answers Fastify's own `{ error: "Bad Request", code: "FST_ERR_BAD_URL" }`): a bad percent-escape,
 * a path segment over maxParamLength, a failed async constraint.
 */
export function frameworkErrorBody(error: FrameworkError): LocalizedErrorBody {
  if (error.code === 'FST_ERR_BAD_URL') {
    return {
      statusCode: 400,
      error: 'malformed_url',
      message: { en: `${error.message}: the path has a malformed percent-escape (% must be followed by two hex digits)`, 'zh-CN': '路径中有格式错误的百分号转义（% 后必须跟两位十六进制数字）' },
    };
  }
  if (error.code === 'FST_ERR_MAX_PARAM_LENGTH') return { statusCode: 414, error: 'uri_too_long', message: { en: error.message, 'zh-CN': `路径中有一段超过了路由接受的长度（${error.message}）` } };
  const code = error.code ?? 'unknown error';
  return { statusCode: 500, error: 'internal_error', message: { en: `the request could not be routed (${code})`, 'zh-CN': `请求无法路由（${code}）` } };
}
