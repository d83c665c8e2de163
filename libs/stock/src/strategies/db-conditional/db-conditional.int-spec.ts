import type { StrategyName } from '@oversell/contracts';
import { randomUUID } from 'node:crypto';
import { StockNotSeededError } from '../../errors';
import { faultPointsFor } from '../../fault-points';
import { freshProductId, runOrdersAcrossProcesses, useStockTestApp } from '../../testing';

const lab = useStockTestApp();

const STOCK = 100;

/** 3 OS processes × 60 orders in flight on one product, with 5 ms of business between read and write. */
async function contend(strategy: StrategyName) {
  const productId = freshProductId();
  await lab.app.reset.reset(productId, { stock: STOCK, strategy, businessDelayMs: 5 });
  const { outcomes, conflicts, errors } = await runOrdersAcrossProcesses({ processes: 3, requestsPerProcess: 80, inFlight: 60, keyPrefix: lab.keyPrefix, productId, strategy });
  const inventory = await lab.app.inventory.inventory(productId);
  console.log(`${strategy} under contention: ${JSON.stringify({ outcomes, conflicts, sold: inventory.sold, oversold: inventory.oversold, remaining: inventory.remaining })}`);
  expect(errors).toEqual([]);
  expect(inventory.oversold).toBe(0);
  expect(inventory.storesAgree).toBe(true);
  return { outcomes, conflicts, inventory };
}

describe('db-conditional', () => {
  it('sells every unit with no conflict where db-optimistic, on the same load, retries lost version checks', async () => {
    const conditional = await contend('db-conditional');
    expect(conditional.conflicts).toBe(0);
    expect(conditional.outcomes.conflict).toBe(0);
    expect(conditional.inventory.sold).toBe(STOCK);
    expect(conditional.outcomes.sold).toBe(STOCK);

    const optimistic = await contend('db-optimistic');
    expect(optimistic.conflicts).toBeGreaterThan(0);
  });

  it('tells a row short of stock (sold out) from no row for the run (not seeded)', async () => {
    const productId = freshProductId();
    const settings = await lab.app.reset.reset(productId, { stock: 1, strategy: 'db-conditional' });
    const strategy = lab.app.registry.get('db-conditional');
    const deduct = (runId: string) =>
      strategy.deduct({
        requestId: randomUUID(),
        quantity: 2,
        settings: { ...settings, runId },
        faults: faultPointsFor(settings),
        record: () => Promise.reject(new Error('nothing may be recorded')),
        recorded: async () => null,
      });
    expect(await deduct(settings.runId)).toEqual({ outcome: 'sold_out' });
    await expect(deduct(randomUUID())).rejects.toBeInstanceOf(StockNotSeededError);
    expect(await lab.app.inventory.inventory(productId)).toMatchObject({ remaining: 1, sold: 0 });
  });
});
