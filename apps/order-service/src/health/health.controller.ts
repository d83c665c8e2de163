import { Controller, Get, Res, ServiceUnavailableException } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import { HealthCheck, HealthCheckService, TypeOrmHealthIndicator, type HealthCheckResult } from '@nestjs/terminus';
import type { FastifyReply } from 'fastify';
import { RedisHealthIndicator } from './redis.health';

/** 200 when both stores answer, 503 with Terminus' report naming the one that does not. */
@ApiTags('health')
@Controller('health')
export class HealthController {
  constructor(
    private readonly health: HealthCheckService,
    private readonly mysql: TypeOrmHealthIndicator,
    private readonly redis: RedisHealthIndicator,
  ) {}

  @Get()
  @HealthCheck()
  async check(@Res({ passthrough: true }) reply: FastifyReply): Promise<HealthCheckResult> {
    try {
      return await this.health.check([() => this.mysql.pingCheck('mysql', { timeout: 1500 }), () => this.redis.isHealthy('redis')]);
    } catch (error) {
      // Terminus reports a failed check as a 503 exception; its report is the body monitoring tools expect.
      if (!(error instanceof ServiceUnavailableException)) throw error;
      void reply.status(503);
      return error.getResponse() as HealthCheckResult;
    }
  }
}
