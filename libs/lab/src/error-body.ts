import { HttpException } from '@nestjs/common';
import { ERROR_CODES, type ErrorBody, type ErrorCode } from '@oversell/contracts';

/** An HTTP error whose body is already the public ErrorBody; the filter sends it as it is. */
export class ApiError extends HttpException {
  constructor(statusCode: number, error: ErrorCode, message: string, extra: Pick<ErrorBody, 'field' | 'details'> = {}) {
    super({ statusCode, error, message, ...extra } satisfies ErrorBody, statusCode);
  }
}

export function isErrorBody(value: unknown): value is ErrorBody {
  const v = value as ErrorBody;
  return typeof v === 'object' && v !== null && typeof v.statusCode === 'number' && (ERROR_CODES as readonly string[]).includes(v.error) && typeof v.message === 'string';
}
