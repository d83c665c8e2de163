import { Inject, Injectable, Logger, type OnApplicationShutdown } from '@nestjs/common';
import type { CourseState, CourseStateUpdate } from '@oversell/contracts';
import { loadLuaScript, useScripts } from '@oversell/locks';
import { RedisConnections, reportTrouble, STOCK_OPTIONS, type StockOptions } from '@oversell/stock';
import type Redis from 'ioredis';
import type { Result } from 'ioredis';
import * as Joi from 'joi';
import { readMessage } from '../pubsub-message';
import { courseChannel, courseKey } from '../redis-keys';

const UPDATE_COURSE = loadLuaScript(__dirname, 'update-course-1.lua');

declare module 'ioredis' {
  interface RedisCommander<Context> {
    updateCourseV1(...keysThenArgs: string[]): Result<string, Context>;
  }
}

/** Before the presenter's first change: no lesson, version 0. */
const NO_CHANGE_YET: CourseState = { lessonId: null, runIds: [], version: 0, updatedAt: new Date(0).toISOString() };

const COURSE_STATE = Joi.object<CourseState>({
  lessonId: Joi.string().allow(null).required(),
  runIds: Joi.array().items(Joi.string()).required(),
  version: Joi.number().integer().min(1).required(),
  updatedAt: Joi.string().required(),
});

type Listener = (state: CourseState) => void;

/**
 * The course's state in the lab's Redis, so every instance behind the gateway serves the same one, and
 * its changes over pub/sub. One subscriber connection per instance, opened with the first follower,
 * whatever the number of followers: each change is fanned out in process to their listeners.
 */
@Injectable()
export class CourseStore implements OnApplicationShutdown {
  private readonly logger = new Logger(CourseStore.name);
  private readonly redis: Redis;
  private readonly listeners = new Set<Listener>();
  private subscriber?: Redis;
  private subscribed?: Promise<unknown>;

  constructor(
    connections: RedisConnections,
    @Inject(STOCK_OPTIONS) private readonly options: StockOptions,
  ) {
    this.redis = useScripts(connections.control, [UPDATE_COURSE]);
  }

  async read(): Promise<CourseState> {
    const hash = await this.redis.hgetall(courseKey(this.options.keyPrefix));
    if (!hash.version) return NO_CHANGE_YET;
    return { lessonId: hash.lessonId ?? null, runIds: JSON.parse(hash.runIds ?? '[]') as string[], version: Number(hash.version), updatedAt: hash.updatedAt };
  }

  /** Applies one change and publishes it (one script: the version and the message cannot part). */
  async update(change: CourseStateUpdate): Promise<CourseState> {
    const prefix = this.options.keyPrefix;
    const state = await this.redis.updateCourseV1(
      courseKey(prefix),
      change.lessonId === null ? '0' : '1',
      change.lessonId ?? '',
      change.runIds === undefined ? '' : JSON.stringify(change.runIds),
      new Date().toISOString(),
      courseChannel(prefix),
    );
    return JSON.parse(state) as CourseState;
  }

  /** Resolves once this instance's subscription is live, so no change published after it returns is missed. */
  async listen(listener: Listener): Promise<() => void> {
    this.listeners.add(listener);
    try {
      await this.subscribe();
    } catch (error) {
      this.listeners.delete(listener);
      throw error;
    }
    return () => void this.listeners.delete(listener);
  }

  private subscribe(): Promise<unknown> {
    if (!this.subscriber) {
      const channel = courseChannel(this.options.keyPrefix);
      this.subscriber = reportTrouble(this.redis.duplicate(), 'course events');
      // Nothing may throw out of this listener: inside ioredis a throw is an uncaught exception.
      this.subscriber.on('message', (_channel: string, message: string) => {
        const state = readMessage(COURSE_STATE, channel, message, this.logger);
        if (!state) return;
        for (const listener of this.listeners) {
          try {
            listener(state);
          } catch (error) {
            this.logger.error('a follower of the course failed on a change', error instanceof Error ? error.stack : String(error));
          }
        }
      });
      // ioredis subscribes again by itself after a reconnect.
      this.subscribed = this.subscriber.subscribe(channel);
      this.subscribed.catch(() => {
        // A failed SUBSCRIBE is forgotten, and tried again by the next follower.
        void this.subscriber?.quit().catch(() => undefined);
        this.subscriber = undefined;
      });
    }
    return this.subscribed!;
  }

  async onApplicationShutdown(): Promise<void> {
    await this.subscriber?.quit().catch(() => undefined);
  }
}
