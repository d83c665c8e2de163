import { type ArgumentsHost, Catch, type ExceptionFilter, HttpException, Logger } from '@nestjs/common';
import { errorBodyIn, type ErrorCode, type Localized, type LocalizedErrorBody } from '@oversell/contracts';
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
import { ApiError } from '@oversell/lab';
import { errorLocale } from './request-locale';

function fromStockError(error: StockError): LocalizedErrorBody {
  if (error instanceof OrderWriteUnsupportedError) return { statusCode: 400, error: 'validation_failed', message: error.texts, field: 'orderWrite' };
  if (error instanceof UnknownStrategyError) return { statusCode: 400, error: 'unknown_strategy', message: error.texts, field: 'strategy' };
  if (error instanceof ProductNotFoundError) return { statusCode: 404, error: 'product_not_found', message: error.texts, field: 'productId' };
  if (error instanceof StrategyMismatchError) return { statusCode: 409, error: 'strategy_mismatch', message: error.texts, field: 'strategy' };
  if (error instanceof StockNotSeededError) return { statusCode: 409, error: 'stock_not_seeded', message: error.texts };
  if (error instanceof StockStoreLostError) return { statusCode: 503, error: 'stock_store_lost', message: error.texts };
  if (error instanceof DuplicateIdempotencyKeyError) return { statusCode: 409, error: 'conflict', message: error.texts, field: 'idempotencyKey' };
  if (error instanceof IdempotencyKeyReusedError) return { statusCode: 409, error: 'idempotency_key_reused', message: error.texts, field: 'idempotencyKey' };
  if (error instanceof LockServiceMissingError) return { statusCode: 503, error: 'store_unavailable', message: error.texts };
  if (error instanceof StoreUnavailableError) return { statusCode: 503, error: 'store_unavailable', message: error.texts };
  if (error instanceof NoLockMajorityError) return { statusCode: 503, error: 'lock_unavailable', message: error.texts };
  return { statusCode: 500, error: 'internal_error', message: error.texts };
}

/** Fastify refuses a body no parser takes (only JSON has one) with a bare 415; say which type it was. */
function unsupportedMediaType(request: FastifyRequest): LocalizedErrorBody {
  const type = request.headers['content-type'];
  return {
    statusCode: 415,
    error: 'unsupported_media_type',
    message: {
      en: `${type ? `content type ${type}` : 'a body without a content type'} is not accepted: send application/json`,
      'zh-CN': `不接受${type ? `内容类型 ${type}` : '没有内容类型的请求体'}：请发送 application/json`,
    },
  };
}

const INTERNAL_ERROR = { en: 'internal error; see the service log', 'zh-CN': '内部错误；请查看服务日志' };

/** Nest's and Fastify's own messages (English), with the Chinese for what they mean. */
function frameworkMessage(status: number, english: string, request: FastifyRequest): Localized {
  if (status === 404) return { en: english, 'zh-CN': `没有这个地址：${request.method} ${request.url}` };
  if (status === 413) return { en: english, 'zh-CN': '请求体超过了服务接受的大小' };
  if (status >= 500) return INTERNAL_ERROR;
  return { en: english, 'zh-CN': `请求无效（${english}）` };
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
    const request = http.getRequest<FastifyRequest>();
    const body = this.toBody(exception, request);
    if (body.statusCode >= 500) this.logger.error(exception instanceof Error ? exception.stack : String(exception));
    const locale = errorLocale(request);
    void http.getResponse<FastifyReply>().status(body.statusCode).header('content-language', locale).header('vary', 'Accept-Language').send(errorBodyIn(body, locale));
  }

  private toBody(exception: unknown, request: FastifyRequest): LocalizedErrorBody {
    if (exception instanceof StockError) return fromStockError(exception);
    if (exception instanceof ApiError) return exception.body;
    if (exception instanceof HttpException) {
      const response = exception.getResponse();
      const status = exception.getStatus();
      if (status === 415) return unsupportedMediaType(request);
      const message = typeof response === 'string' ? response : ((response as { message?: string }).message ?? exception.message);
      // Nest turns Fastify's request errors (body too large, bad content type) into plain HttpExceptions.
      const error: ErrorCode = status === 404 ? 'not_found' : status === 413 ? 'payload_too_large' : status >= 500 ? 'internal_error' : 'validation_failed';
      return { statusCode: status, error, message: frameworkMessage(status, String(message), request) };
    }
    const status = statusCode(exception);
    if (status && status >= 400 && status < 500) return { statusCode: status, error: 'validation_failed', message: frameworkMessage(status, (exception as Error).message, request) };
    return { statusCode: 500, error: 'internal_error', message: INTERNAL_ERROR };
  }
}
