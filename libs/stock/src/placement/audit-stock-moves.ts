import type { RequestIds, StockMovesAudit } from '@oversell/contracts';
import type { StockMovesRead } from '../request-moves';

/** How many request ids each list shows (sorted, so two reads of the same run show the same ones). */
export const FIRST_IDS = 5;

/** A run's orders that carry a request id, read by id or a page at a time, never all at once. */
export interface RunOrders {
  /** The units each of these requests ordered; a request with no order is absent. */
  of(requestIds: readonly string[]): Promise<Map<string, number>>;
  count(): Promise<number>;
  /** Every one of them, a page at a time. */
  pages(): AsyncIterable<Map<string, number>>;
}

/**
 * The stock's moves against the orders, by request id: totals can agree while units were sold twice
 * (a lost update) and as many taken with no order. A request that took and gave back is settled; one
 * that took units and has no order, or took more than it ordered, stranded them; an order whose request
 * took nothing was sold from stock the store never gave.
 * Page by page: each page of moves with its own orders, then, only when some orders were not among
 * them, the orders again to list those.
 */
export async function auditStockMoves(moves: StockMovesRead, orders: RunOrders): Promise<StockMovesAudit> {
  const takenWithoutOrder = new IdList();
  const orderedWithoutTake = new IdList();
  const takenTwice = new IdList();
  let requests = 0;
  let unitsTaken = 0;
  let unitsWithoutOrder = 0;
  let ordersMet = 0;
  for await (const page of moves) {
    const orderedByRequest = await orders.of([...page.keys()]);
    ordersMet += orderedByRequest.size;
    for (const [requestId, { takes, givenBack }] of page) {
      const taken = takes.reduce((sum, units) => sum + units, 0) - givenBack;
      const ordered = orderedByRequest.get(requestId) ?? 0;
      requests += 1;
      unitsTaken += taken;
      unitsWithoutOrder += Math.max(0, taken - ordered);
      if (takes.length > 1) takenTwice.add(requestId, takes.slice(1).reduce((sum, units) => sum + units, 0));
      if (!ordered && taken > 0) takenWithoutOrder.add(requestId, taken);
      if (ordered > taken) orderedWithoutTake.add(requestId, ordered - taken);
    }
  }
  if ((await orders.count()) > ordersMet) {
    for await (const page of orders.pages()) {
      for (const [requestId, ordered] of page) if (!moves.seen.has(requestId)) orderedWithoutTake.add(requestId, ordered);
    }
  }
  return {
    requests,
    unitsTaken,
    unitsWithoutOrder,
    takenWithoutOrder: takenWithoutOrder.view(),
    orderedWithoutTake: orderedWithoutTake.view(),
    takenTwice: takenTwice.view(),
  };
}

/** A count, the units, and the first few ids in sort order: the only ids kept, however many there are. */
class IdList {
  private readonly first: string[] = [];
  private count = 0;
  private units = 0;

  add(requestId: string, units: number): void {
    this.count += 1;
    this.units += units;
    if (this.first.length < FIRST_IDS || requestId < this.first[FIRST_IDS - 1]) {
      this.first.push(requestId);
      this.first.sort();
      this.first.length = Math.min(this.first.length, FIRST_IDS);
    }
  }

  view(): RequestIds {
    return { count: this.count, units: this.units, first: [...this.first] };
  }
}
