import { Body, Controller, Get, type MessageEvent, Put, Sse } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import type { CourseState } from '@oversell/contracts';
import { Observable } from 'rxjs';
import { CourseStore } from '@oversell/lab';
import { AdminOnly } from './admin-token.guard';
import { CourseStateUpdateDto } from './course-state.dto';

/** Where the presenter is in the course, for the followers (libs/contracts/src/course.ts). */
@ApiTags('course')
@Controller('api/course')
export class CourseController {
  constructor(private readonly store: CourseStore) {}

  @Get()
  get(): Promise<CourseState> {
    return this.store.read();
  }

  /** Only the presenter moves the course: a follower reads it. */
  @Put()
  @AdminOnly()
  update(@Body() update: CourseStateUpdateDto): Promise<CourseState> {
    return this.store.update(update);
  }

  /**
   * Server-sent events `course`: the current state, then every change. The subscription is live
   * before the state is read, so a change in between is not lost; one older than what was sent (or
   * the same) is dropped.
   */
  @Sse('events')
  async events(): Promise<Observable<MessageEvent>> {
    const buffered: CourseState[] = [];
    let forward: ((state: CourseState) => void) | null = null;
    const stop = await this.store.listen((state) => (forward ? forward(state) : buffered.push(state)));
    let current: CourseState;
    try {
      current = await this.store.read();
    } catch (error) {
      stop();
      throw error;
    }
    return new Observable<MessageEvent>((subscriber) => {
      let shown = -1;
      const emit = (state: CourseState) => {
        if (state.version <= shown) return;
        shown = state.version;
        subscriber.next({ type: 'course', data: state });
      };
      emit(current);
      for (const state of buffered) emit(state);
      forward = emit;
      return stop;
    });
  }
}
