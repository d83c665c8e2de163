import type Redis from 'ioredis';
import type { RequestMoves } from '../request-moves';

/**
 * A request's moves as the take and give-back scripts note them in the run's moves hash under the request
 * id: "t<units>:<stock left>" per take, "g<units>" per give-back, space-separated. A take or give-back the
 * scripts recognise as sent again is not noted twice.
 */
export function parseRequestMoves(noted: string): RequestMoves {
  const moves: RequestMoves = { takes: [], givenBack: 0 };
  for (const move of noted.split(' ')) {
    const units = Number.parseInt(move.slice(1), 10);
    if (move.startsWith('t')) moves.takes.push(units);
    else if (move.startsWith('g')) moves.givenBack += units;
  }
  return moves;
}

/**
 * Every request's moves of a run's stock. One HGETALL at reconciliation (about 60 bytes a request in
 * Redis); the hot path only adds one HGET and one HSET inside the scripts it already runs.
 */
export async function readStockMoves(redis: Redis, movesKey: string): Promise<Map<string, RequestMoves>> {
  const noted = await redis.hgetall(movesKey);
  return new Map(Object.entries(noted).map(([requestId, value]) => [requestId, parseRequestMoves(value)]));
}
