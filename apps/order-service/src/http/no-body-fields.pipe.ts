import { Injectable, type PipeTransform } from '@nestjs/common';
import { ApiError } from '@oversell/lab';

/**
 * For a route that takes no body (break-locks): none, `null` or `{}` pass; any field, or a body that is
 * not an object, is a 400 as an unknown field of a DTO would be, so a client that thinks it is choosing
 * something (which lock, which run) learns that nothing it sent was read before anything is done.
 */
@Injectable()
export class NoBodyFieldsPipe implements PipeTransform<unknown, undefined> {
  transform(body: unknown): undefined {
    if (body === undefined || body === null) return undefined;
    if (typeof body !== 'object' || Array.isArray(body)) {
      throw new ApiError(400, 'validation_failed', { en: 'this action takes no body: send none, or {}', 'zh-CN': '此操作不接受请求体：不要发送，或发送 {}' });
    }
    const [field] = Object.keys(body);
    if (field !== undefined) {
      throw new ApiError(400, 'validation_failed', { en: `property ${field} should not exist: this action takes no body fields`, 'zh-CN': `不允许有属性 ${field}：此操作不接受任何请求体字段` }, { field });
    }
    return undefined;
  }
}
