import { HttpException } from '@nestjs/common';
import { ERROR_CODES, errorBodyIn, type ErrorBody, type ErrorCode, type Localized, type LocalizedErrorBody } from '@oversell/contracts';

/** An HTTP error whose body is already the public ErrorBody, in every language; the filter sends it in the client's. */
export class ApiError extends HttpException {
  readonly body: LocalizedErrorBody;

  constructor(statusCode: number, error: ErrorCode, message: Localized, extra: Pick<LocalizedErrorBody, 'field' | 'details'> = {}) {
    const body: LocalizedErrorBody = { statusCode, error, message, ...extra };
    super(errorBodyIn(body, 'en'), statusCode);
    this.body = body;
  }
}

export function isErrorBody(value: unknown): value is ErrorBody {
  const v = value as ErrorBody;
  return typeof v === 'object' && v !== null && typeof v.statusCode === 'number' && (ERROR_CODES as readonly string[]).includes(v.error) && typeof v.message === 'string';
}
