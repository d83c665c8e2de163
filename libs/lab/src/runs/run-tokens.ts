import { Inject, Injectable, Logger } from '@nestjs/common';
import { RedisConnections, STOCK_OPTIONS, type StockOptions } from '@oversell/stock';
import type Redis from 'ioredis';
import { randomBytes } from 'node:crypto';
import { runTokenKey } from '../redis-keys';

/** Long enough for a run to wait behind a full queue of the longest runs, and then run. */
const RUN_TOKEN_TTL_SECONDS = 24 * 3600;
/** 24 random bytes, base64url: what issue() makes; anything else is refused without asking Redis. */
const TOKEN_SHAPE = /^[\w-]{32}$/;
/** Tokens this instance has seen answered; a handful of runs at most are live at once. */
const MAX_KNOWN = 64;

/**
 * A run's figures count only the requests that carry its token (the x-run-token header): 192 random
 * bits made when the run is created, given to its creator and to the load tools, and never listed.
 * A run id, which anyone reads in GET /api/runs, adds nothing to a run's figures.
 */
@Injectable()
export class RunTokens {
  private readonly logger = new Logger(RunTokens.name);
  private readonly redis: Redis;
  /** token → run id, so an order costs a Redis round trip only the first time this instance sees a token. */
  private readonly known = new Map<string, string>();

  constructor(
    connections: RedisConnections,
    @Inject(STOCK_OPTIONS) private readonly options: StockOptions,
  ) {
    this.redis = connections.control;
  }

  async issue(runId: string): Promise<string> {
    const token = randomBytes(24).toString('base64url');
    await this.redis.set(this.key(token), runId, 'EX', RUN_TOKEN_TTL_SECONDS);
    return token;
  }

  /**
   * The run a request's token belongs to; null without a token, for one no run was given, or when
   * Redis cannot say (the request is then served but not counted, rather than failed after its stock
   * was taken).
   */
  async runOf(token: string | undefined): Promise<string | null> {
    if (!token || !TOKEN_SHAPE.test(token)) return null;
    const known = this.known.get(token);
    if (known) return known;
    try {
      const runId = await this.redis.get(this.key(token));
      if (runId) this.remember(token, runId);
      return runId;
    } catch (error) {
      this.logger.warn(`could not look up a run token, the request is not counted: ${String(error)}`);
      return null;
    }
  }

  private remember(token: string, runId: string): void {
    if (this.known.size >= MAX_KNOWN) this.known.delete(this.known.keys().next().value!);
    this.known.set(token, runId);
  }

  private key(token: string): string {
    return runTokenKey(this.options.keyPrefix, token);
  }
}
