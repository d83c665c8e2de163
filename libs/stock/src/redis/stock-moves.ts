import type { Cluster, Redis } from 'ioredis';
import type { RequestMoves, StockMovesRead } from '../request-moves';

/**
 * A request's moves as the take and give-back scripts note them in the run's moves hash under the request
 * id: "t<units>:<stock left>" per take, "g<units>" per give-back, space-separated. A take or give-back the
 * scripts recognise as sent again is not noted twice.
 */
export function parseRequestMoves(noted: string): RequestMoves {
  const moves: RequestMoves = { takes: [], left: [], givenBack: 0 };
  for (const move of noted.split(' ')) {
    const units = Number.parseInt(move.slice(1), 10);
    if (move.startsWith('t')) {
      moves.takes.push(units);
      moves.left.push(Number.parseInt(move.slice(move.indexOf(':') + 1), 10));
    } else if (move.startsWith('g')) moves.givenBack += units;
  }
  return moves;
}

/** A hash the take and give-back scripts note moves in, and the connection it is on. */
export interface MovesHash {
  readonly redis: Redis | Cluster;
  readonly key: string;
}

/** Fields asked of HSCAN per page: a page and its orders' rows stay a few hundred kB however big the run. */
const PAGE_FIELDS = 1000;

/**
 * Every request's moves of a run's stock (about 60 bytes a request in Redis; the hot path only adds one
 * HGET and one HSET inside the scripts it already runs), read with HSCAN a page at a time: a run of
 * 100 000 orders read whole, with its orders beside it, was the run worker's largest transient heap.
 * Segments on a cluster note a request's takes in the hash of the segment it took from, so a request
 * found in one hash is asked of the others (HMGET) and comes once, its moves merged. HSCAN may return a
 * field twice when the hash is resized between pages: `seen` skips the repeat.
 */
export class StockMovePages implements StockMovesRead {
  readonly seen = new Set<string>();

  constructor(private readonly hashes: readonly MovesHash[]) {}

  async *[Symbol.asyncIterator](): AsyncIterator<Map<string, RequestMoves>> {
    for (const hash of this.hashes) {
      let cursor = '0';
      do {
        const [next, flat] = await hash.redis.hscan(hash.key, cursor, 'COUNT', PAGE_FIELDS);
        cursor = next;
        const page = new Map<string, RequestMoves>();
        for (let i = 0; i < flat.length; i += 2) {
          if (this.seen.has(flat[i])) continue;
          this.seen.add(flat[i]);
          page.set(flat[i], parseRequestMoves(flat[i + 1]));
        }
        if (page.size) yield await this.mergedFromOthers(hash, page);
      } while (cursor !== '0');
    }
  }

  private async mergedFromOthers(read: MovesHash, page: Map<string, RequestMoves>): Promise<Map<string, RequestMoves>> {
    const ids = [...page.keys()];
    for (const other of this.hashes) {
      if (other === read) continue;
      const noted = await other.redis.hmget(other.key, ...ids);
      noted.forEach((value, i) => {
        if (value === null) return;
        const mine = page.get(ids[i])!;
        const theirs = parseRequestMoves(value);
        page.set(ids[i], { takes: [...mine.takes, ...theirs.takes], left: [...mine.left, ...theirs.left], givenBack: mine.givenBack + theirs.givenBack });
      });
    }
    return page;
  }
}
