import type { RequestIds, StockMovesAudit } from '@oversell/contracts';
import type { StockMovesRead } from '../request-moves';

/** How many request ids each list shows (sorted, so two reads of the same run show the same ones). */
export const FIRST_IDS = 5;
/** The requests named for the first unit sold twice: two wrote from one read, sometimes a third. */
const SAME_READ_IDS = 3;

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
 * them, the orders again to list those. With `oneCell` (the stock is one key, not segments whose stock
 * left values say nothing of each other) it also names the first unit sold twice: the takes that left
 * the same stock.
 */
export async function auditStockMoves(moves: StockMovesRead, orders: RunOrders, { oneCell = true }: { oneCell?: boolean } = {}): Promise<StockMovesAudit> {
  const takenWithoutOrder = new IdList();
  const orderedWithoutTake = new IdList();
  const takenTwice = new IdList();
  let requests = 0;
  let unitsTaken = 0;
  let unitsWithoutOrder = 0;
  let ordersMet = 0;
  // One entry per stock value left (at most the initial stock plus the units sold twice), not per request,
  // and a few ids each: a trace draws the 2–3 orders of one unit sold twice, not every one.
  const byStockLeft = new Map<number, string[]>();
  const noteTake = (stockLeft: number, requestId: string) => {
    const ids = byStockLeft.get(stockLeft);
    if (!ids) byStockLeft.set(stockLeft, [requestId]);
    else if (ids.length < SAME_READ_IDS) ids.push(requestId);
  };
  for await (const page of moves) {
    const orderedByRequest = await orders.of([...page.keys()]);
    ordersMet += orderedByRequest.size;
    for (const [requestId, { takes, left, givenBack }] of page) {
      const taken = takes.reduce((sum, units) => sum + units, 0) - givenBack;
      const ordered = orderedByRequest.get(requestId) ?? 0;
      requests += 1;
      unitsTaken += taken;
      unitsWithoutOrder += Math.max(0, taken - ordered);
      if (takes.length > 1) takenTwice.add(requestId, takes.slice(1).reduce((sum, units) => sum + units, 0));
      if (!ordered && taken > 0) takenWithoutOrder.add(requestId, taken);
      if (ordered > taken) orderedWithoutTake.add(requestId, ordered - taken);
      if (oneCell && givenBack === 0) for (const stockLeft of left) noteTake(stockLeft, requestId);
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
    ...firstSameRead(byStockLeft),
  };
}

/** The highest stock left by more than one take: the first unit sold twice, the stock only going down. */
function firstSameRead(byStockLeft: ReadonlyMap<number, string[]>): Pick<StockMovesAudit, 'firstSameRead'> {
  let first: StockMovesAudit['firstSameRead'];
  for (const [stockLeft, requestIds] of byStockLeft) {
    if (requestIds.length > 1 && (!first || stockLeft > first.stockLeft)) first = { stockLeft, requestIds: [...requestIds].sort() };
  }
  return first ? { firstSameRead: first } : {};
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
