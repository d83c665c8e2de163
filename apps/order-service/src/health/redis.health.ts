import { Injectable } from '@nestjs/common';
import { HealthIndicatorService } from '@nestjs/terminus';
import { RedisConnections } from '@oversell/stock';

@Injectable()
export class RedisHealthIndicator {
  constructor(
    private readonly connections: RedisConnections,
    private readonly health: HealthIndicatorService,
  ) {}

  async isHealthy(key: string) {
    const indicator = this.health.check(key);
    try {
      const started = performance.now();
      await this.connections.commands.ping();
      return indicator.up({ latencyMs: Math.round((performance.now() - started) * 100) / 100 });
    } catch (error) {
      return indicator.down({ message: error instanceof Error ? error.message : String(error) });
    }
  }
}
