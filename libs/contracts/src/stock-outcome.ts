/**
 * What went wrong with the stock, in the one figure a room understands: units sold twice. `oversold`
 * counts only sales beyond the initial stock, so a lock that lets two holders sell the same unit while
 * stock is left shows 0 there; the lost updates (more units taken than the store went down by) show it
 * whether or not the stock ran out, and equal `oversold` at sell-out.
 */
export interface StockFigures {
  oversold: number;
  /** Absent in results from before it was counted: then `oversold` is all there is. */
  lostUpdates?: number;
  /** Units taken with no order (a crash stranded them). */
  lost?: number;
  /** The store lost its keys: its remaining stock and moves are not measurements, MySQL's orders still are. */
  storeLost?: boolean;
}

/** Units sold twice: at least those sold beyond the stock; the lost updates where the store's figures stand. */
export function unitsSoldTwice(figures: StockFigures): number {
  return figures.storeLost ? figures.oversold : Math.max(figures.oversold, figures.lostUpdates ?? 0);
}

/**
 * The headline's verdict, in order of what matters most: a unit sold twice (red), the store lost (its
 * figures are not measurements), units stranded with no order (their own colour, never green and never
 * counted as sold twice), or every unit sold at most once (green). Two holders at once do not decide
 * it: the fenced and lock-lost fixes overlap by design and sell nothing twice.
 */
export type StockOutcome = 'sold-twice' | 'store-lost' | 'stranded' | 'held';

export function stockOutcome(figures: StockFigures): StockOutcome {
  if (unitsSoldTwice(figures) > 0) return 'sold-twice';
  if (figures.storeLost) return 'store-lost';
  if ((figures.lost ?? 0) > 0) return 'stranded';
  return 'held';
}

/**
 * A lower bound of the units sold twice while a run goes: the units counted as sold minus what the store
 * went down by, read after the count (every counted sale's take is then in the store's figure, so a sound
 * strategy never shows above 0; sales not counted yet only make it lower). The reconciliation's figure
 * replaces it at the end.
 */
export function unitsSoldTwiceSoFar(initialStock: number, soldCounted: number, remainingReadAfter: number): number {
  return Math.max(0, soldCounted - (initialStock - Math.max(0, remainingReadAfter)));
}
