import type { RequestIds, StockMovesAudit } from '@oversell/contracts';
import type { RequestMoves } from '../request-moves';

/** How many request ids each list shows (sorted, so two reads of the same run show the same ones). */
export const FIRST_IDS = 5;

/**
 * The stock's moves against the orders, by request id: totals can agree while units were sold twice
 * (a lost update) and as many taken with no order. A request that took and gave back is settled; one
 * that took units and has no order, or took more than it ordered, stranded them; an order whose request
 * took nothing was sold from stock the store never gave.
 */
export function auditStockMoves(moves: ReadonlyMap<string, RequestMoves>, orderedByRequest: ReadonlyMap<string, number>): StockMovesAudit {
  const takenWithoutOrder = new IdList();
  const orderedWithoutTake = new IdList();
  const takenTwice = new IdList();
  let unitsTaken = 0;
  let unitsWithoutOrder = 0;
  for (const [requestId, { takes, givenBack }] of moves) {
    const taken = takes.reduce((sum, units) => sum + units, 0) - givenBack;
    const ordered = orderedByRequest.get(requestId) ?? 0;
    unitsTaken += taken;
    unitsWithoutOrder += Math.max(0, taken - ordered);
    if (takes.length > 1) takenTwice.add(requestId, takes.slice(1).reduce((sum, units) => sum + units, 0));
    if (!ordered && taken > 0) takenWithoutOrder.add(requestId, taken);
    if (ordered > taken) orderedWithoutTake.add(requestId, ordered - taken);
  }
  for (const [requestId, ordered] of orderedByRequest) if (!moves.has(requestId)) orderedWithoutTake.add(requestId, ordered);
  return {
    requests: moves.size,
    unitsTaken,
    unitsWithoutOrder,
    takenWithoutOrder: takenWithoutOrder.view(),
    orderedWithoutTake: orderedWithoutTake.view(),
    takenTwice: takenTwice.view(),
  };
}

class IdList {
  private readonly ids: string[] = [];
  private units = 0;

  add(requestId: string, units: number): void {
    this.ids.push(requestId);
    this.units += units;
  }

  view(): RequestIds {
    return { count: this.ids.length, units: this.units, first: this.ids.sort().slice(0, FIRST_IDS) };
  }
}
