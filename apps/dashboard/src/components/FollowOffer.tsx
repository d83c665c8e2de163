import { useTranslation } from 'react-i18next';
import { Link } from '@tanstack/react-router';
import { findLesson, LESSONS } from '@oversell/contracts';
import { useCourse } from '../api/queries';
import { useLocale } from '../i18n/use-locale';

/** On the home page while a course is being presented: one click to follow the presenter. */
export function FollowOffer() {
  const { t } = useTranslation();
  const locale = useLocale();
  const lesson = findLesson(useCourse().data?.lessonId ?? undefined);
  if (!lesson) return null;
  return (
    <section className="panel follow-offer" data-testid="follow-offer">
      <p>{t('follow.offer', { number: LESSONS.indexOf(lesson) + 1, title: lesson.title[locale] })}</p>
      <Link to="/follow" className="button button--primary" data-testid="follow-presenter">
        {t('follow.follow')}
      </Link>
    </section>
  );
}
