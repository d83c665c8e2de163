import type { StrategyName } from '@oversell/contracts';
import { useScripts, type LuaScript } from '@oversell/locks';
import type Redis from 'ioredis';
import { CLAIMED, claimedByAnother, claimOf } from '../redis/order-claim';
import { GIVE_BACK, recordOrGiveBack } from '../redis/redis-stock';
import type { RunStockKeys } from '../redis/stock-keys';
import type { DeductContext, DeductResult } from '../stock-strategy';
import { luaScriptsOf } from './scripts-of';
import { RedisStockStrategy } from './redis-stock-strategy';
import type { StrategyDefinition, StrategyDeps } from './strategy-definition';

/**
 * A one-script take (includes/atomic-take.lua): KEYS stock, moves, order stream, idempotency claim;
 * ARGV units, request id, order (or ""), claim seconds (or ""). CLAIMED when another request holds the key.
 */
export type AtomicTakeCommand<Reply> = (stock: string, moves: string, orders: string, claim: string, units: number, requestId: string, order: string, claimSeconds: number | '') => Promise<Reply | typeof CLAIMED>;

/** What the strategy makes of its script's reply (never CLAIMED: that refusal is the composition's). */
export type AtomicTakeReply<Reply> = (reply: Reply, redis: Redis, keys: RunStockKeys, context: DeductContext) => Promise<DeductResult>;

/** A strategy whose take is one script on the product's Redis stock key, run with no lock: it appends a streamed order with the take. */
class AtomicRedisStock<Reply> extends RedisStockStrategy {
  readonly streamsOrders = true;
  readonly claimsKeyBeforeStock = true;
  private readonly take: AtomicTakeCommand<Reply>;

  constructor(
    readonly name: StrategyName,
    script: LuaScript,
    private readonly settle: AtomicTakeReply<Reply>,
    deps: StrategyDeps,
  ) {
    super(deps.redis, deps.options.keyPrefix);
    this.take = atomicTakeCommand(deps.redis, script);
  }

  async deduct(context: DeductContext): Promise<DeductResult> {
    const { redis } = this.store;
    const keys = this.store.keys(context.settings);
    const claim = claimOf(keys, context);
    const reply = await this.take(keys.stock, keys.moves, keys.orders, claim.key, context.quantity, context.requestId, context.orderIntent ?? '', claim.seconds);
    if (reply === CLAIMED) throw claimedByAnother(context);
    return this.settle(reply, redis, keys, context);
  }
}

/** The take script as a command on the connection (defined there by useScripts under the script's name). */
export function atomicTakeCommand<Reply>(redis: Redis, script: LuaScript): AtomicTakeCommand<Reply> {
  const scripted = useScripts(redis, [script]) as unknown as Record<string, AtomicTakeCommand<Reply>>;
  return scripted[script.command].bind(scripted);
}

/** A registry row for a take in one script (it and the give-back are what the Explain view shows). */
export function atomicRedisStock<Name extends StrategyName, Reply>(name: Name, script: LuaScript, settle: AtomicTakeReply<Reply>): StrategyDefinition<Name> {
  return { name, scripts: luaScriptsOf(script, GIVE_BACK), create: (deps) => new AtomicRedisStock(name, script, settle, deps) };
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
