/**
 * Where the presenter is in the course (the dashboard's Lessons view). The order service keeps one
 * such state per lab (in Redis, so every instance behind the gateway serves the same) and streams each
 * change to the followers: anyone who opens the lab's address sees the presenter's lesson and its runs.
 *
 * - `GET  /api/course`        → `CourseState` (no token)
 * - `PUT  /api/course`        ← `CourseStateUpdate` → `CourseState` (the admin token beyond loopback)
 * - `GET  /api/course/events` → server-sent events `course`, each a `CourseState`, the current one first
 */
export interface CourseState {
  /** The lesson's id in the course, or null before the presenter opened one. */
  lessonId: string | null;
  /** The runs the presenter started for this lesson, newest last (a preset's broken and fix side, or a lab run). */
  runIds: string[];
  /** Grows by one with every change, so a follower can drop an event older than what it shows. */
  version: number;
  /** ISO time of the last change. */
  updatedAt: string;
}

export interface CourseStateUpdate {
  lessonId: string | null;
  /** Omitted: the runs are kept if the lesson is the same one, and cleared when it changes. */
  runIds?: string[];
}

/** Bounds the service checks on a `CourseStateUpdate` (a 400 names the field beyond them). */
export const COURSE_LIMITS = { lessonIdMaxLength: 64, runIdsMax: 8 } as const;
