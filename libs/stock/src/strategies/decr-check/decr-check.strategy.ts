import type { StrategyDescription } from '@oversell/contracts';
import { loadLuaScript, useScripts } from '@oversell/locks';
import type { Result } from 'ioredis';
import { RedisStockStrategy } from '../../compose/redis-stock-strategy';
import { luaScriptsOf } from '../../compose/scripts-of';
import type { StrategyDefinition, StrategyDeps } from '../../compose/strategy-definition';
import { StockNotSeededError } from '../../errors';
import { GIVE_BACK, giveBack, recordOrGiveBack } from '../../redis/redis-stock';
import type { DeductContext, DeductResult } from '../../stock-strategy';

const DECREMENT_COUNTER = loadLuaScript(__dirname, 'decrement-counter-2.lua');

declare module 'ioredis' {
  interface RedisCommander<Context> {
    decrementCounterV1(stockKey: string, movesKey: string, units: number, requestId: string): Result<number | null, Context>;
  }
}

const DESCRIPTION: StrategyDescription = {
  name: 'decr-check',
  title: 'DECRBY, check, INCRBY back',
  kind: 'atomic',
  store: 'redis',
  settings: ['businessDelayMs'],
  lease: 'none',
  safe: true,
  description:
    'Takes the units first and checks afterwards: DECRBY on the stock counter (atomic on its own), and if the result is below zero the order overdrew it, so INCRBY puts the units back and the answer is sold out. No lock; the check is not in a script (each command is wrapped in one only to note the request id, so a command sent again after a lost reply moves nothing twice).',
  guarantee: 'Never oversells: every DECRBY is atomic, and an order is sold only when its own DECRBY left the counter at 0 or above, so the units sold never exceed the stock.',
  pitfall:
    'The overdraft and its repair are two commands. Between them the counter is below the true stock (negative, even), and a concurrent order the real stock could cover is refused sold out. ' +
    'If the process dies between the two, the INCRBY never comes: the counter stays low for good, and the units it owes are neither sold nor available (lost). ' +
    'Like lua-decrement, a crash between the DECRBY and the order insert also loses the units taken.',
  reproduce:
    'A pause or a crash at the stock-overdrawn fault point (see its tests). Under load near sellout, orders for several units overdraw the counter and refuse smaller orders it could still cover.',
  symptom:
    'Oversold stays 0 and the lock timeline is empty (no lock). Near sellout with orders for several units, sold-out answers while units are left; ' +
    'after an instance dies mid-overdraft the remaining stock reads below 0 for good, stores agree shows NO and reconciliation counts the stranded units as lost.',
  steps: [
    'EVALSHA decrement-counter: DECRBY stock n, once per request id, only if the stock key exists (a missing key is not seeded, or lost)',
    'if the result < 0: EVALSHA give-back (INCRBY stock n back, once), sold out',
    'business delay (outside any lock)',
    'INSERT the order (give-back if that fails)',
  ],
  choice: {
    runsOn: 'one Redis',
    complexity: 'low: DECRBY, check, INCRBY back',
    reliability: 'never oversells: each DECRBY is atomic; a crash between overdraw and give-back leaves the counter low (undersold), never oversold',
    underFault: {
      crash: 'A crash after an overdrawing DECRBY and before its give-back leaves the counter low: units go unsold, none twice.',
      pause: 'Nothing is held: a pause delays only its own order.',
      'store-cut': 'The order fails; a DECRBY that landed before the cut without its order recorded leaves units unsold.',
      failover: 'Decrements not yet replicated are lost with the master: the promoted replica has more stock than was sold, and it oversells by them.',
    },
  },
  scripts: luaScriptsOf(DECREMENT_COUNTER, GIVE_BACK),
};

/**
 * An atomic counter used the way the articles show it: decrement first, give back on overdraft. What
 * is left is the counter as it is: below 0 while (or, after a crash, since) an order overdrew it.
 */
class DecrCheckStrategy extends RedisStockStrategy {
  readonly name = 'decr-check' as const;

  constructor(deps: StrategyDeps) {
    super(useScripts(deps.redis, [DECREMENT_COUNTER]), deps.options.keyPrefix);
  }

  describe(): StrategyDescription {
    return DESCRIPTION;
  }

  async deduct(context: DeductContext): Promise<DeductResult> {
    const { redis } = this.store;
    const keys = this.store.keys(context.settings);
    const left = await redis.decrementCounterV1(keys.stock, keys.moves, context.quantity, context.requestId);
    if (left === null) throw new StockNotSeededError(context.settings.productId);
    if (left < 0) {
      await context.faults.at('stock-overdrawn');
      // The counter gone meanwhile (Redis restarted): nothing to give back into, and the store is lost.
      if (!(await giveBack(redis, keys, context))) throw new StockNotSeededError(context.settings.productId);
      return { outcome: 'sold_out' };
    }
    await context.faults.at('stock-read');
    await context.faults.at('stock-written');
    return recordOrGiveBack(redis, keys, context);
  }
}

export const decrCheck: StrategyDefinition = { name: 'decr-check', create: (deps) => new DecrCheckStrategy(deps) };
