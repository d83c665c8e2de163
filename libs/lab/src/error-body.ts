import { HttpException } from '@nestjs/common';
import { errorBodyIn, type ErrorCode, type Localized, type LocalizedErrorBody } from '@oversell/contracts';

/** An HTTP error whose body is already the public ErrorBody, in every language; the filter sends it in the client's. */
export class ApiError extends HttpException {
  readonly body: LocalizedErrorBody;

  constructor(statusCode: number, error: ErrorCode, message: Localized, extra: Pick<LocalizedErrorBody, 'field' | 'details'> = {}) {
    const body: LocalizedErrorBody = { statusCode, error, message, ...extra };
    super(errorBodyIn(body, 'en'), statusCode);
    this.body = body;
  }
}
