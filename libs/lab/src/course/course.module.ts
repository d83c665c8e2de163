import { Module } from '@nestjs/common';
import { CourseStore } from './course.store';

/** Follow mode: the presenter's place in the course, kept in Redis and streamed to every follower (the host adds the routes). */
@Module({ providers: [CourseStore], exports: [CourseStore] })
export class CourseModule {}
