import type { StrategyName } from '@oversell/contracts';
import { useScripts, type LuaScript } from '@oversell/locks';
import type Redis from 'ioredis';
import { GIVE_BACK, recordOrGiveBack } from '../redis/redis-stock';
import type { RunStockKeys } from '../redis/stock-keys';
import type { DeductContext, DeductResult } from '../stock-strategy';
import { luaScriptsOf } from './scripts-of';
import { RedisStockStrategy } from './redis-stock-strategy';
import type { StrategyDefinition, StrategyDeps } from './strategy-definition';

/** One order's take by a strategy whose take is one script on the run's stock key. */
export type AtomicTake = (redis: Redis, keys: RunStockKeys, context: DeductContext) => Promise<DeductResult>;

/** A strategy whose take is one script on the product's Redis stock key, run with no lock: it appends a streamed order with the take. */
class AtomicRedisStock extends RedisStockStrategy {
  readonly streamsOrders = true;
  readonly claimsKeyBeforeStock = true;

  constructor(
    readonly name: StrategyName,
    script: LuaScript,
    private readonly take: AtomicTake,
    deps: StrategyDeps,
  ) {
    super(useScripts(deps.redis, [script]), deps.options.keyPrefix);
  }

  deduct(context: DeductContext): Promise<DeductResult> {
    return this.take(this.store.redis, this.store.keys(context.settings), context);
  }
}

/** A registry row for a take in one script (it and the give-back are what the Explain view shows). */
export function atomicRedisStock<Name extends StrategyName>(name: Name, script: LuaScript, take: AtomicTake): StrategyDefinition<Name> {
  return { name, scripts: luaScriptsOf(script, GIVE_BACK), create: (deps) => new AtomicRedisStock(name, script, take, deps) };
}

/**
 * After the script took the units: its read and its write were that one step (their fault points pass
 * in turn, with no async step when nothing is armed), then the order is recorded or the units go back.
 */
export async function recordTake(redis: Redis, keys: RunStockKeys, context: DeductContext): Promise<DeductResult> {
  const read = context.faults.at('stock-read');
  if (read) await read;
  const written = context.faults.at('stock-written');
  if (written) await written;
  return recordOrGiveBack(redis, keys, context);
}
