import { Logger } from '@nestjs/common';
import type Redis from 'ioredis';

const logger = new Logger('Redis');

/**
 * Tells a connection's outage once in the service's log, and its return. The errors themselves reach
 * the commands that met them (each fails: store_unavailable), and unheard, ioredis prints a stack for
 * every reconnection attempt: dozens per instance in a store cut, drowning what the fault shows.
 */
export function reportTrouble(redis: Redis, name: string): Redis {
  let down = false;
  redis.on('error', (error: Error) => {
    if (down) return;
    down = true;
    logger.warn(`connection "${name}": ${error.message}; its commands fail until it reconnects`);
  });
  redis.on('ready', () => {
    if (!down) return;
    down = false;
    // A warning too: a log read at warn level would otherwise show the outage and never its end.
    logger.warn(`connection "${name}" is back`);
  });
  return redis;
}

/**
 * A BullMQ queue's or worker's errors (a lost connection, a lock it could not renew) as one warning
 * each in the service's log: with no listener BullMQ prints each with its stack on stderr.
 */
export function reportQueueErrors(name: string): (error: Error) => void {
  return (error) => logger.warn(`${name}: ${error.message}`);
}
