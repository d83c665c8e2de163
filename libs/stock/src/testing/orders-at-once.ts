import type { OrderOutcome, StrategyName } from '@oversell/contracts';
import type { StockTestApp } from './stock-test-app';

/** Places `count` one-unit orders from this process at once, so they wait on the lock together; their outcomes. */
export async function placeAtOnce(app: StockTestApp, { productId, strategy, count }: { productId: number; strategy: StrategyName; count: number }): Promise<OrderOutcome[]> {
  const placements = await Promise.all(Array.from({ length: count }, () => app.placement.place({ productId, quantity: 1, strategy })));
  return placements.map((placement) => placement.result.outcome);
}
