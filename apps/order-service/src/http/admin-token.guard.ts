import { applyDecorators, type CanActivate, type ExecutionContext, Inject, Injectable, UseGuards } from '@nestjs/common';
import { ApiBearerAuth, ApiForbiddenResponse, ApiUnauthorizedResponse } from '@nestjs/swagger';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { createHash, timingSafeEqual } from 'node:crypto';
import { appConfig, type AppConfig } from '../config/configuration';
import { ApiError } from '@oversell/lab';

/** Fixed-length digests, so the comparison takes the same time whatever the length of the guess. */
const digest = (token: string) => createHash('sha256').update(token).digest();

/**
 * Lets an admin action through only with `Authorization: Bearer <ADMIN_TOKEN>`, whenever a token is
 * set. The guard runs before the body is validated or anything is touched, so a refused action changes
 * nothing. Without a token (allowed only on a loopback bind, see env.schema) everything passes.
 */
@Injectable()
export class AdminTokenGuard implements CanActivate {
  private readonly expected: Buffer | null;

  constructor(@Inject(appConfig.KEY) config: AppConfig) {
    this.expected = config.adminToken ? digest(config.adminToken) : null;
  }

  canActivate(context: ExecutionContext): boolean {
    if (!this.expected) return true;
    const http = context.switchToHttp();
    const presented = /^Bearer +(\S+)$/i.exec(http.getRequest<FastifyRequest>().headers.authorization ?? '')?.[1];
    if (!presented) {
      void http.getResponse<FastifyReply>().header('www-authenticate', 'Bearer realm="oversell-lab admin"');
      throw new ApiError(401, 'unauthorized', {
        en: "this admin action needs the lab's token: send Authorization: Bearer <ADMIN_TOKEN>; nothing was changed",
        'zh-CN': '此管理操作需要实验室的令牌：请发送 Authorization: Bearer <ADMIN_TOKEN>；没有做任何更改',
      });
    }
    if (!timingSafeEqual(digest(presented), this.expected)) {
      throw new ApiError(403, 'forbidden', { en: "the bearer token is not this lab's ADMIN_TOKEN; nothing was changed", 'zh-CN': 'Bearer 令牌不是本实验室的 ADMIN_TOKEN；没有做任何更改' });
    }
    return true;
  }
}

/** Marks a state-changing admin route (resets, runs, break-locks); orders and reads stay open. */
export const AdminOnly = () =>
  applyDecorators(
    UseGuards(AdminTokenGuard),
    ApiBearerAuth(),
    ApiUnauthorizedResponse({ description: 'unauthorized: ADMIN_TOKEN is set and no bearer token was sent; nothing changed.' }),
    ApiForbiddenResponse({ description: 'forbidden: the bearer token is not ADMIN_TOKEN; nothing changed.' }),
  );
