import type { CourseState } from '@oversell/contracts';
import { describe, expect, it } from 'vitest';
import { newerCourseState } from './course-state';

const state = (version: number, lessonId: string): CourseState => ({ lessonId, runIds: [], version, updatedAt: '2026-01-01T00:00:00Z' });

describe('newerCourseState', () => {
  it('keeps the newer of what is shown and what arrived', () => {
    expect(newerCourseState(undefined, state(1, 'a'))).toEqual(state(1, 'a'));
    expect(newerCourseState(state(3, 'c'), state(2, 'b'))).toEqual(state(3, 'c'));
    expect(newerCourseState(state(3, 'c'), state(4, 'd'))).toEqual(state(4, 'd'));
  });
});
