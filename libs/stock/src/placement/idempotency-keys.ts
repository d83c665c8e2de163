import { Inject, Injectable } from '@nestjs/common';
import { loadLuaScript, useScripts } from '@oversell/locks';
import type { Result } from 'ioredis';
import { RedisConnections } from '../redis/redis-connections';
import { STOCK_OPTIONS, type StockOptions } from '../stock.options';
import type { OrderClaim } from '../stock-strategy';

const REMEMBER_SECONDS = 24 * 3600;
const RELEASE_CLAIM = loadLuaScript(__dirname, 'release-idempotency-claim-1.lua');

declare module 'ioredis' {
  interface RedisCommander<Context> {
    releaseIdempotencyClaimV1(claimKey: string, requestId: string): Result<number, Context>;
  }
}

/**
 * Which idempotency keys already have an order, remembered in Redis so that the common case (a new
 * key) costs no MySQL lookup: the check rides in the same pipeline as the settings read. The unique
 * index on orders.idempotency_key stays the real guard; this only decides when to look there.
 */
@Injectable()
export class IdempotencyKeys {
  constructor(
    private readonly connections: RedisConnections,
    @Inject(STOCK_OPTIONS) private readonly options: StockOptions,
  ) {
    // At start-up, not at a first release: a script defined on an auto-pipelined connection whose pipeline
    // of the tick is already open breaks that pipeline's replies (see defineStockCellScripts).
    useScripts(connections.commands, [RELEASE_CLAIM]);
  }

  private key(idempotencyKey: string): string {
    return `${this.options.keyPrefix}:idempotency:${idempotencyKey}`;
  }

  /**
   * The claim a streamed order's take script sets with the order (orderWrite 'stream'), in the step that
   * takes its units: no round trip of its own, and no claim to let go when the take finds no stock.
   */
  orderClaim(idempotencyKey: string): OrderClaim {
    return { key: this.key(idempotencyKey), seconds: REMEMBER_SECONDS, idempotencyKey };
  }

  async used(idempotencyKey: string): Promise<boolean> {
    return (await this.connections.commands.exists(this.key(idempotencyKey))) === 1;
  }

  /**
   * Takes the key for a queued order (orderWrite 'queued'), whose row, and so the unique index, comes
   * only later: the first request to claim it wins, and the key then names that request. False when
   * another request holds it; true when this one already does (ioredis sends a command again after a
   * reconnect, and the second SET NX would find the first one's claim). If Redis forgets a claim, the
   * writer's INSERT drops the second row on the index, and the reconciliation shows its units as taken
   * without an order.
   */
  async claim(idempotencyKey: string, requestId: string): Promise<boolean> {
    const holder = await this.connections.commands.set(this.key(idempotencyKey), requestId, 'EX', REMEMBER_SECONDS, 'NX', 'GET');
    return holder === null || holder === requestId;
  }

  /** Lets go of this request's claim: its order will not be (its units went back). */
  async release(idempotencyKey: string, requestId: string): Promise<void> {
    await this.connections.commands.releaseIdempotencyClaimV1(this.key(idempotencyKey), requestId);
  }

  /** The request that claimed the key for a queued order; null if none did (or '1' for a written one). */
  claimedBy(idempotencyKey: string): Promise<string | null> {
    return this.connections.commands.get(this.key(idempotencyKey));
  }

  /** Best effort: if Redis forgets (or never heard), the unique index still refuses a second order. */
  async remember(idempotencyKey: string): Promise<void> {
    await this.connections.commands.set(this.key(idempotencyKey), '1', 'EX', REMEMBER_SECONDS).catch(() => undefined);
  }
}
