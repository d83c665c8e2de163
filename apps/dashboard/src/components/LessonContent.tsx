import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from '@tanstack/react-router';
import { findPitfallPreset, LESSONS, lessonSides, type Lesson } from '@oversell/contracts';
import { useStrategies } from '../api/queries';
import { useLocale } from '../i18n/use-locale';
import { labSearchFor } from '../lib/lab-search';
import { describePresetSettings } from '../lib/run-description';
import { PitfallExplanation } from './PitfallExplanation';
import { PitfallSidePanel } from './PitfallSidePanel';
import { StrategyScripts } from './StrategyScripts';

interface LessonContentProps {
  lesson: Lesson;
  /** The runs of the lesson's sides, in lessonSides' order (the URL's, or the presenter's). */
  runIds: string[];
  /** The presenter's controls (the run button); none for a follower. */
  controls?: ReactNode;
}

/**
 * One lesson: the claim and its question, the lock's code, its sides' runs side by side with the truthful
 * headline and verdict, what happened and why, and where to go on from it (Explain, the Lab, the sources).
 */
export function LessonContent({ lesson, runIds, controls }: LessonContentProps) {
  const { t } = useTranslation();
  const locale = useLocale();
  const strategies = useStrategies();
  const preset = lesson.preset ? findPitfallPreset(lesson.preset) : undefined;
  const sides = lessonSides(lesson);
  const number = LESSONS.indexOf(lesson) + 1;

  return (
    <article className="lesson" data-testid="lesson" data-lesson-id={lesson.id}>
      <section className="panel lesson-intro">
        <p className="run-meta">{t('lessons.lessonOf', { number, total: LESSONS.length })}</p>
        <h2 data-testid="lesson-title">{lesson.title[locale]}</h2>
        <dl className="lesson-claim">
          <dt>{t('lessons.claim')}</dt>
          <dd>{lesson.claim[locale]}</dd>
          <dt>{t('lessons.question')}</dt>
          <dd className="lesson-question">{lesson.question[locale]}</dd>
        </dl>
        {lesson.needs?.includes('redis-sentinel') && (
          <p className="notice" data-testid="lesson-needs">
            {t('lessons.needsSentinels', { command: 'npm run demo -- --sentinels' })}
          </p>
        )}
        {controls}
        {preset && <p className="run-meta">{t('pitfalls.bothSides', { settings: describePresetSettings(preset.sides[0].settings, t) })}</p>}
        {lesson.labRuns && <p className="run-meta">{t('lessons.labRuns')}: {describePresetSettings(lesson.labRuns.sides[0].settings, t)}</p>}
      </section>

      {runIds.length > 0 && (
        <div className="pitfall-sides" data-testid="lesson-sides">
          {sides.map(({ experiment, side }, index) =>
            runIds[index] ? (
              <PitfallSidePanel key={runIds[index]} preset={experiment} side={side} runId={runIds[index]} />
            ) : (
              <p key={`${side.strategy}-${index}`} className="panel empty">
                {t('lessons.notRun', { side: side.label[locale] })}
              </p>
            ),
          )}
        </div>
      )}

      <section className="panel pitfall-explanation" data-testid="lesson-explanation">
        <h3>{t('lessons.whatHappened')}</h3>
        {preset && (
          <>
            <h4>{preset.title[locale]}</h4>
            <PitfallExplanation explanation={preset.explanation} />
          </>
        )}
        {lesson.labRuns && (
          <>
            {preset && <h4>{t('lessons.labRuns')}</h4>}
            <PitfallExplanation explanation={lesson.labRuns.explanation} />
          </>
        )}
      </section>

      <section className="panel lesson-code" data-testid="lesson-code">
        <h3>{t('lessons.code')}</h3>
        {lesson.strategies.map((name) => {
          const strategy = strategies.data?.find((s) => s.name === name);
          return (
            <div key={name} className="lesson-strategy">
              <h4>
                <code>{name}</code>{' '}
                <Link to="/explain/{-$strategy}" params={{ strategy: name }} className="run-meta">
                  {t('lessons.inExplain', { strategy: name })}
                </Link>
              </h4>
              {strategy && <StrategyScripts strategy={strategy} />}
            </div>
          );
        })}
      </section>

      <section className="panel" data-testid="lesson-try">
        <h3>{t('lessons.tryIt')}</h3>
        <ul>
          {sides.map(({ side }, index) => (
            <li key={`${side.strategy}-${index}`}>
              <Link to="/lab/{-$runId}" params={{ runId: undefined }} search={labSearchFor(side.strategy, side.settings)} data-testid="lesson-lab-link">
                {t('lessons.inTheLab', { strategy: side.strategy })}
              </Link>{' '}
              <span className="run-meta">({side.label[locale]})</span>
            </li>
          ))}
        </ul>
        {lesson.references && (
          <>
            <h4>{t('lessons.references')}</h4>
            <ul>
              {lesson.references.map((reference) => (
                <li key={reference.url}>
                  <a href={reference.url} target="_blank" rel="noreferrer">
                    {reference.title}
                  </a>
                </li>
              ))}
            </ul>
          </>
        )}
      </section>
    </article>
  );
}
