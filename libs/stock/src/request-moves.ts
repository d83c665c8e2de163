/**
 * One request's moves of a run's stock, as the Redis take and give-back scripts note them (redis/stock-moves):
 * what the reconciliation by request id checks against the MySQL orders.
 */
export interface RequestMoves {
  /** The units of each take, in order. */
  takes: number[];
  givenBack: number;
}
