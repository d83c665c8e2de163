import { Logger } from '@nestjs/common';
import { reportTrouble } from '@oversell/stock';
import type Redis from 'ioredis';
import * as Joi from 'joi';
import { randomUUID } from 'node:crypto';
import { readMessage } from '../pubsub-message';
import { flushAckChannel, flushRequestsChannel } from '../redis-keys';

/**
 * Both sides of the flush at the end of a run: the run worker asks every instance to let its in-flight
 * orders finish and push what it still buffers, and waits for each one's answer (ack), so the figures
 * it reads next are complete.
 */
export interface FlushRequest {
  runId: string;
  nonce: string;
  /** How long an order of this run can take at most; the worker derives it from the run's settings. */
  drainTimeoutMs: number;
}

export interface FlushAck {
  instance: string;
  nonce: string;
  /** Every in-flight order finished within drainTimeoutMs. */
  drained: boolean;
  /** The figures reached Redis. */
  flushed: boolean;
}

/**
 * Sent by an instance its own crash fault is about to kill, once the crash is recorded: it will never
 * ack, and the wait for it ends now rather than at the timeout.
 */
export interface CrashNotice {
  instance: string;
  crashed: true;
}

const FLUSH_REQUEST = Joi.object<FlushRequest>({ runId: Joi.string().required(), nonce: Joi.string().required(), drainTimeoutMs: Joi.number().integer().min(0).required() });
const FLUSH_ACK = Joi.object<FlushAck>({ instance: Joi.string().required(), nonce: Joi.string().required(), drained: Joi.boolean().required(), flushed: Joi.boolean().required() });
const CRASH_NOTICE = Joi.object<CrashNotice>({ instance: Joi.string().required(), crashed: Joi.valid(true).required() });
const FLUSH_ANSWER = Joi.alternatives<FlushAck | CrashNotice>().try(FLUSH_ACK, CRASH_NOTICE);
const logger = new Logger('FlushProtocol');

export interface FlushSpec {
  keyPrefix: string;
  runId: string;
  /** The instances that must ack, unless a crash fault kills them. */
  instances: readonly string[];
  /**
   * The instances whose crash this run recorded so far: read once the wait listens for crash notices,
   * so a crash is either in this list or heard. They are not waited for.
   */
  recordedCrashes: () => Promise<readonly string[]>;
  drainTimeoutMs: number;
  /** How long to wait for the acks once the request is out. */
  ackTimeoutMs: number;
  /**
   * The instances that stopped (dead, or restarted as another process), asked every GONE_POLL_MS while
   * the wait lasts: one still owing its answer ends the wait at once, named by its description.
   */
  gone?: () => Promise<readonly { instance: string; description: string }[]>;
}

const GONE_POLL_MS = 1000;

/**
 * The worker's side: resolves once every instance acked a drain and a flush or recorded its crash;
 * rejects naming the first instance that could not, or those that did not answer within ackTimeoutMs.
 */
export async function requestFlush(redis: Redis, { keyPrefix, runId, instances, recordedCrashes, drainTimeoutMs, ackTimeoutMs, gone }: FlushSpec): Promise<void> {
  const acks = new FlushAcks(randomUUID(), instances, drainTimeoutMs);
  const subscriber = reportTrouble(redis.duplicate(), 'flush answers');
  // Listening before the request goes out: an ack may come back before PUBLISH's own reply.
  subscriber.on('message', (channel: string, raw: string) => {
    const answer = readMessage(FLUSH_ANSWER, channel, raw, logger);
    if (answer) acks.receive(answer);
  });
  try {
    await subscriber.subscribe(flushAckChannel(keyPrefix, runId));
    for (const instance of await recordedCrashes()) acks.receive({ instance, crashed: true });
    await redis.publish(flushRequestsChannel(keyPrefix), JSON.stringify({ runId, nonce: acks.nonce, drainTimeoutMs } satisfies FlushRequest));
    const watching = gone && setInterval(() => void acks.checkGone(gone), GONE_POLL_MS);
    try {
      await acks.all(ackTimeoutMs);
    } finally {
      clearInterval(watching);
    }
  } finally {
    await subscriber.quit().catch(() => undefined);
  }
}

/** The acks of one request as they arrive. */
class FlushAcks {
  private readonly pending: Set<string>;
  private failure: Error | null = null;
  private changed: () => void = () => undefined;

  constructor(
    readonly nonce: string,
    instances: readonly string[],
    private readonly drainTimeoutMs: number,
  ) {
    this.pending = new Set(instances);
  }

  receive(ack: FlushAck | CrashNotice): void {
    if ('crashed' in ack) {
      this.pending.delete(ack.instance);
    } else if (ack.nonce !== this.nonce) {
      return;
    } else if (!ack.drained || !ack.flushed) {
      this.failure ??= new Error(ack.drained ? `instance ${ack.instance} could not write its figures to Redis` : `instance ${ack.instance} still had orders in flight ${this.drainTimeoutMs} ms after the load stopped`);
    } else {
      this.pending.delete(ack.instance);
    }
    this.changed();
  }

  private checking = false;

  /** Fails the wait if an instance that still owes its answer has stopped; one check at a time. */
  async checkGone(gone: NonNullable<FlushSpec['gone']>): Promise<void> {
    if (this.checking) return;
    this.checking = true;
    try {
      const stopped = (await gone()).filter((g) => this.pending.has(g.instance));
      if (stopped.length) {
        this.failure ??= new Error(`instance ${stopped.map((g) => g.description).join(', ')} stopped as the load ended, before it reported its figures`);
        this.changed();
      }
    } catch (error) {
      logger.warn(`could not tell whether an instance stopped during the flush: ${error instanceof Error ? error.message : String(error)}`);
    } finally {
      this.checking = false;
    }
  }

  /**
   * Settles on the first failure, once every instance acked, or at the timeout. The promise and its
   * timer exist only once the caller awaits them, and the timer is cleared however it settles: a wait
   * given up on (the request could not be sent) leaves nothing behind to reject later.
   */
  all(timeoutMs: number): Promise<void> {
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`instance ${[...this.pending].join(', ')} did not report its figures within ${timeoutMs} ms`)), timeoutMs);
      this.changed = () => {
        if (!this.failure && this.pending.size) return;
        clearTimeout(timer);
        if (this.failure) reject(this.failure);
        else resolve();
      };
      this.changed();
    });
  }
}

/**
 * The side of an instance its own crash fault kills, once the crash is recorded: a flush of this run
 * waiting for it (now or later: the worker also reads the recorded crashes) stops waiting.
 */
export async function announceCrash(redis: Redis, { keyPrefix, runId, instanceId }: { keyPrefix: string; runId: string; instanceId: string }): Promise<void> {
  await redis.publish(flushAckChannel(keyPrefix, runId), JSON.stringify({ instance: instanceId, crashed: true } satisfies CrashNotice));
}

/** What an instance reports once asked: whether its in-flight orders finished, and its figures reached Redis. */
export type FlushOutcome = Pick<FlushAck, 'drained' | 'flushed'>;

/**
 * The instance's side: answers every flush request with `prepare`'s outcome. Resolves once listening;
 * the function it resolves to stops.
 */
export async function answerFlushRequests(redis: Redis, { keyPrefix, instanceId }: { keyPrefix: string; instanceId: string }, prepare: (request: FlushRequest) => Promise<FlushOutcome>): Promise<() => Promise<void>> {
  const answer = async (request: FlushRequest) => {
    const outcome = await prepare(request);
    await redis.publish(flushAckChannel(keyPrefix, request.runId), JSON.stringify({ instance: instanceId, nonce: request.nonce, ...outcome } satisfies FlushAck));
  };
  const subscriber = reportTrouble(redis.duplicate(), 'flush requests');
  subscriber.on('message', (channel: string, raw: string) => {
    const request = readMessage(FLUSH_REQUEST, channel, raw, logger);
    // Caught here: nobody awaits a listener, so a failure would be an unhandled rejection. The worker
    // sees the missing ack and fails the run.
    if (request) answer(request).catch((error: unknown) => logger.error(`could not answer the flush request of run ${request.runId}: ${String(error)}`));
  });
  try {
    await subscriber.subscribe(flushRequestsChannel(keyPrefix));
  } catch (error) {
    subscriber.disconnect();
    throw error;
  }
  return () => subscriber.quit().then(() => undefined, () => undefined);
}
