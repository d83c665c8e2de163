import type { StrategyDescription } from '@oversell/contracts';
import Redis from 'ioredis';
import { DataSource } from 'typeorm';
import { LockEvents } from './lock-events';
import { DEFAULT_STOCK_OPTIONS } from './stock.options';
import { StrategyRegistry, STRATEGIES } from './strategy-registry';

/**
 * Every strategy's description as the API serves it, read without a store: for the tools that write
 * docs from them (npm run choosing-a-lock). A strategy builds its description from constants and
 * connects nothing until its first order, so each is built here on a Redis that never connects and a
 * DataSource that is never initialised.
 */
export function describeStrategiesOffline(): StrategyDescription[] {
  const redis = new Redis({ lazyConnect: true });
  try {
    const strategies = STRATEGIES.map((definition) =>
      definition.create({
        redis,
        subscriber: redis,
        lockRedis: redis,
        lockSubscriber: redis,
        dataSource: new DataSource({ type: 'mysql' }),
        options: { ...DEFAULT_STOCK_OPTIONS, redis: {}, instanceId: 'describe' },
        lockEvents: new LockEvents(),
        onShutdown: () => undefined,
      }),
    );
    return new StrategyRegistry(strategies).describeAll();
  } finally {
    redis.disconnect();
  }
}
