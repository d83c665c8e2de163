import type { CourseState } from '@oversell/contracts';

/** The state to show: an event older than what is shown (a poll's answer overtaken by the stream) is dropped. */
export function newerCourseState(shown: CourseState | undefined, arrived: CourseState): CourseState {
  return shown && shown.version > arrived.version ? shown : arrived;
}
