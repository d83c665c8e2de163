/**
 * One request's moves of a run's stock, as the Redis take and give-back scripts note them (redis/stock-moves):
 * what the reconciliation by request id checks against the MySQL orders.
 */
export interface RequestMoves {
  /** The units of each take, in order. */
  takes: number[];
  /** The stock each take left, as the take script read it: two requests leaving the same stock wrote from the same read. */
  left: number[];
  givenBack: number;
}

/**
 * A run's moves read a page at a time: each request once, in no set order. `seen` holds every request id
 * read so far: after the last page, the run's whole list (the one thing a reconciliation keeps of them all).
 */
export interface StockMovesRead extends AsyncIterable<Map<string, RequestMoves>> {
  readonly seen: ReadonlySet<string>;
}
