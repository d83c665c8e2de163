import { useEffect, useRef } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate } from '@tanstack/react-router';
import { findLesson, lessonRunParams, LESSONS, lessonSides, neighbourLessons, type Lesson } from '@oversell/contracts';
import { useSetCourse, useStartRuns } from '../api/queries';
import { LessonContent } from '../components/LessonContent';
import { ServiceError } from '../components/ServiceError';
import { useLocale } from '../i18n/use-locale';
import { isTypingTarget } from '../lib/keys';

interface LessonsViewProps {
  /** The lesson open, from the URL; none for the course's list. */
  lessonId?: string;
  /** Its sides' runs once queued, in lessonSides' order, from the URL (a reload keeps watching them). */
  runIds?: string[];
  /** `?presenter=1`: larger type, controls shown on hover or focus, ← / → and r; followers are told. */
  presenter: boolean;
}

export function LessonsView({ lessonId, runIds = [], presenter }: LessonsViewProps) {
  const { t } = useTranslation();
  if (lessonId === undefined) return <LessonList presenter={presenter} />;
  const lesson = findLesson(lessonId);
  if (!lesson) return <p className="notice notice--error">{t('lessons.noLesson', { id: lessonId })}</p>;
  // Keyed by lesson: a lesson's queuing error is its own.
  return <LessonPage key={lesson.id} lesson={lesson} runIds={runIds} presenter={presenter} />;
}

function LessonList({ presenter }: { presenter: boolean }) {
  const { t } = useTranslation();
  const locale = useLocale();
  return (
    <div className={`view lessons${presenter ? ' presenter' : ''}`} data-testid="lessons-view">
      <section className="panel">
        <h2>{t('lessons.title')}</h2>
        <p>{t('lessons.intro')}</p>
        <p>
          <Link
            to="/lessons/{-$lessonId}/{-$runIds}"
            params={{ lessonId: LESSONS[0].id, runIds: undefined }}
            search={{ presenter: 1 }}
            className="button button--primary"
            data-testid="lessons-present"
          >
            {t('lessons.present')}
          </Link>
        </p>
        <ol className="lesson-list" data-testid="lesson-list">
          {LESSONS.map((lesson) => (
            <li key={lesson.id}>
              <Link to="/lessons/{-$lessonId}/{-$runIds}" params={{ lessonId: lesson.id, runIds: undefined }} search={presenter ? { presenter: 1 } : {}}>
                {lesson.title[locale]}
              </Link>
              <span className="run-meta"> — {lesson.question[locale]}</span>
            </li>
          ))}
        </ol>
      </section>
    </div>
  );
}

function LessonPage({ lesson, runIds, presenter }: { lesson: Lesson; runIds: string[]; presenter: boolean }) {
  const { t } = useTranslation();
  const locale = useLocale();
  const navigate = useNavigate();
  const startRuns = useStartRuns();
  const setCourse = useSetCourse();
  const { previous, next } = neighbourLessons(lesson.id);
  const search = presenter ? { presenter: 1 as const } : {};

  const goTo = (to: Lesson | undefined) => {
    if (to) void navigate({ to: '/lessons/{-$lessonId}/{-$runIds}', params: { lessonId: to.id, runIds: undefined }, search });
  };
  const run = () => {
    if (startRuns.isPending) return;
    startRuns.mutate(
      lessonSides(lesson).map(({ side }) => lessonRunParams(lesson, side)),
      { onSuccess: ({ runs }) => void navigate({ to: '/lessons/{-$lessonId}/{-$runIds}', params: { lessonId: lesson.id, runIds: runs.map((r) => r.id).join(',') }, search }) },
    );
  };

  // The key handler reads the latest lesson and state, without re-subscribing on every render.
  const keys = useRef({ previous, next, goTo, run });
  keys.current = { previous, next, goTo, run };
  useEffect(() => {
    if (!presenter) return;
    const onKey = (event: KeyboardEvent) => {
      if (event.altKey || event.ctrlKey || event.metaKey || isTypingTarget(event.target)) return;
      const { previous, next, goTo, run } = keys.current;
      if (event.key === 'ArrowLeft') goTo(previous);
      else if (event.key === 'ArrowRight') goTo(next);
      else if (event.key === 'r') run();
      else return;
      event.preventDefault();
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [presenter]);

  // The presenter's lesson and runs are the room's: each change is told to the followers.
  const runList = runIds.join(',');
  const { mutate: tellFollowers } = setCourse;
  useEffect(() => {
    if (presenter) tellFollowers({ lessonId: lesson.id, runIds: runList ? runList.split(',') : [] });
  }, [presenter, lesson.id, runList, tellFollowers]);

  const controls = (
    <div className="lesson-controls" data-testid="lesson-controls">
      <button type="button" className="button button--primary" data-testid="run-lesson" disabled={startRuns.isPending} onClick={run}>
        {startRuns.isPending ? t('common.queuing') : presenter ? t('lessons.runKey') : t('lessons.run')}
      </button>
      {presenter ? (
        <>
          <span className="run-meta">{t('lessons.presenterKeys')}</span>
          <Link to="/lessons/{-$lessonId}/{-$runIds}" params={{ lessonId: lesson.id, runIds: runList || undefined }} search={{}}>
            {t('lessons.leavePresenter')}
          </Link>
        </>
      ) : (
        <Link to="/lessons/{-$lessonId}/{-$runIds}" params={{ lessonId: lesson.id, runIds: runList || undefined }} search={{ presenter: 1 }} data-testid="lesson-presenter">
          {t('lessons.presenter')}
        </Link>
      )}
      {startRuns.error && <ServiceError error={startRuns.error} action={t('errors.action.queueRuns')} />}
      {startRuns.data?.refused && <ServiceError error={startRuns.data.refused.error} action={t('errors.action.queueRuns')} />}
      {presenter && setCourse.error && <ServiceError error={setCourse.error} action={t('errors.action.updateCourse')} />}
    </div>
  );

  return (
    <div className={`view lessons${presenter ? ' presenter' : ''}`} data-testid="lessons-view">
      <LessonContent lesson={lesson} runIds={runIds} controls={controls} />
      <nav className="lesson-nav" aria-label={t('lessons.title')}>
        {previous && (
          <Link to="/lessons/{-$lessonId}/{-$runIds}" params={{ lessonId: previous.id, runIds: undefined }} search={search} data-testid="lesson-previous">
            {t('lessons.previous', { title: previous.title[locale] })}
          </Link>
        )}
        <Link to="/lessons/{-$lessonId}/{-$runIds}" params={{ lessonId: undefined, runIds: undefined }} search={search}>
          {t('lessons.title')}
        </Link>
        {next && (
          <Link to="/lessons/{-$lessonId}/{-$runIds}" params={{ lessonId: next.id, runIds: undefined }} search={search} data-testid="lesson-next">
            {t('lessons.next', { title: next.title[locale] })}
          </Link>
        )}
      </nav>
    </div>
  );
}
