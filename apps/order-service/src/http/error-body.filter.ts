import { type ArgumentsHost, Catch, type ExceptionFilter, HttpException, Logger } from '@nestjs/common';
import type { ErrorBody, ErrorCode } from '@oversell/contracts';
import {
  DuplicateIdempotencyKeyError,
  IdempotencyKeyReusedError,
  LockServiceMissingError,
  NoLockMajorityError,
  OrderWriteUnsupportedError,
  ProductNotFoundError,
  StockError,
  StockNotSeededError,
  StockStoreLostError,
  StoreUnavailableError,
  StrategyMismatchError,
  UnknownStrategyError,
} from '@oversell/stock';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { isErrorBody } from '@oversell/lab';

function fromStockError(error: StockError): ErrorBody {
  if (error instanceof OrderWriteUnsupportedError) return { statusCode: 400, error: 'validation_failed', message: error.message, field: 'orderWrite' };
  if (error instanceof UnknownStrategyError) return { statusCode: 400, error: 'unknown_strategy', message: error.message, field: 'strategy' };
  if (error instanceof ProductNotFoundError) return { statusCode: 404, error: 'product_not_found', message: error.message, field: 'productId' };
  if (error instanceof StrategyMismatchError) return { statusCode: 409, error: 'strategy_mismatch', message: error.message, field: 'strategy' };
  if (error instanceof StockNotSeededError) return { statusCode: 409, error: 'stock_not_seeded', message: error.message };
  if (error instanceof StockStoreLostError) return { statusCode: 503, error: 'stock_store_lost', message: error.message };
  if (error instanceof DuplicateIdempotencyKeyError) return { statusCode: 409, error: 'conflict', message: error.message, field: 'idempotencyKey' };
  if (error instanceof IdempotencyKeyReusedError) return { statusCode: 409, error: 'idempotency_key_reused', message: error.message, field: 'idempotencyKey' };
  if (error instanceof LockServiceMissingError) return { statusCode: 503, error: 'store_unavailable', message: error.message };
  if (error instanceof StoreUnavailableError) return { statusCode: 503, error: 'store_unavailable', message: error.message };
  if (error instanceof NoLockMajorityError) return { statusCode: 503, error: 'lock_unavailable', message: error.message };
  return { statusCode: 500, error: 'internal_error', message: error.message };
}

/** Fastify refuses a body no parser takes (only JSON has one) with a bare 415; say which type it was. */
function unsupportedMediaType(request: FastifyRequest): ErrorBody {
  const type = request.headers['content-type'];
  return { statusCode: 415, error: 'unsupported_media_type', message: `${type ? `content type ${type}` : 'a body without a content type'} is not accepted: send application/json` };
}

function statusCode(error: unknown): number | undefined {
  const code = (error as { statusCode?: unknown }).statusCode;
  return typeof code === 'number' ? code : undefined;
}

/** Every failure leaves as a clear JSON ErrorBody; nothing leaks a stack trace or an HTML page. */
@Catch()
export class ErrorBodyFilter implements ExceptionFilter {
  private readonly logger = new Logger(ErrorBodyFilter.name);

  catch(exception: unknown, host: ArgumentsHost): void {
    const http = host.switchToHttp();
    const body = this.toBody(exception, http.getRequest<FastifyRequest>());
    if (body.statusCode >= 500) this.logger.error(exception instanceof Error ? exception.stack : String(exception));
    void http.getResponse<FastifyReply>().status(body.statusCode).send(body);
  }

  private toBody(exception: unknown, request: FastifyRequest): ErrorBody {
    if (exception instanceof StockError) return fromStockError(exception);
    if (exception instanceof HttpException) {
      const response = exception.getResponse();
      if (isErrorBody(response)) return response;
      const status = exception.getStatus();
      if (status === 415) return unsupportedMediaType(request);
      const message = typeof response === 'string' ? response : ((response as { message?: string }).message ?? exception.message);
      // Nest turns Fastify's request errors (body too large, bad content type) into plain HttpExceptions.
      const error: ErrorCode = status === 404 ? 'not_found' : status === 413 ? 'payload_too_large' : status >= 500 ? 'internal_error' : 'validation_failed';
      return { statusCode: status, error, message: String(message) };
    }
    const status = statusCode(exception);
    if (status && status >= 400 && status < 500) return { statusCode: status, error: 'validation_failed', message: (exception as Error).message };
    return { statusCode: 500, error: 'internal_error', message: 'internal error; see the service log' };
  }
}
