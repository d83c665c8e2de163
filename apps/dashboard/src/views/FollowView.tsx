import { useTranslation } from 'react-i18next';
import { findLesson } from '@oversell/contracts';
import { LessonContent } from '../components/LessonContent';
import { ServiceError } from '../components/ServiceError';
import { useFollowedCourse } from '../hooks/useFollowedCourse';

/** The presenter's current lesson and its runs, live and read-only: what the room sees on its phones. */
export function FollowView() {
  const { t } = useTranslation();
  const { course, error } = useFollowedCourse();
  const lesson = course?.lessonId ? findLesson(course.lessonId) : undefined;
  return (
    <div className="view lessons follow" data-testid="follow-view" data-version={course?.version}>
      <p className="run-meta" role="status">
        <strong>{t('follow.title')}</strong> · {t('follow.readOnly')}
      </p>
      {error && <ServiceError error={error} action={t('errors.action.followCourse')} />}
      {course && !course.lessonId && <p className="panel empty">{t('follow.waiting')}</p>}
      {course?.lessonId && !lesson && <p className="notice notice--error">{t('follow.unknownLesson', { id: course.lessonId })}</p>}
      {/* Keyed by lesson: a new lesson starts with its own runs. */}
      {lesson && <LessonContent key={lesson.id} lesson={lesson} runIds={course?.runIds ?? []} />}
    </div>
  );
}
