import { Module } from '@nestjs/common';
import { CourseController } from './course.controller';
import { CourseStore } from './course.store';

/** Follow mode: the presenter's place in the course, kept in Redis and streamed to every follower. */
@Module({ controllers: [CourseController], providers: [CourseStore] })
export class CourseModule {}
