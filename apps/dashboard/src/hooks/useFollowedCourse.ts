import { useEffect, useState } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import type { CourseState } from '@oversell/contracts';
import { api } from '../api/client';
import { queryKeys, useCourse } from '../api/queries';
import { newerCourseState } from '../lib/course-state';

const POLL_MS = 1000;

/**
 * The presenter's place in the course, live: the service's `course` events (the current state first),
 * and, while the stream is down (the browser reconnects it by itself), the state polled instead.
 */
export function useFollowedCourse(): { course?: CourseState; error: Error | null } {
  const queryClient = useQueryClient();
  const [streamDown, setStreamDown] = useState(false);
  const query = useCourse(streamDown ? POLL_MS : false);

  useEffect(() => {
    const source = new EventSource(api.courseEventsUrl());
    const onCourse = (message: MessageEvent<string>) => {
      let state: CourseState;
      try {
        state = JSON.parse(message.data) as CourseState;
      } catch {
        return; // skipped: the next change supersedes it
      }
      setStreamDown(false);
      queryClient.setQueryData(queryKeys.course, (shown: CourseState | undefined) => newerCourseState(shown, state));
    };
    source.addEventListener('course', onCourse as EventListener);
    source.addEventListener('open', () => setStreamDown(false));
    source.addEventListener('error', () => setStreamDown(true));
    return () => source.close();
  }, [queryClient]);

  return { course: query.data, error: query.data ? null : query.error };
}
