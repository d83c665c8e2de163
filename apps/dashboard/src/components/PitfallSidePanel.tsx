import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from '@tanstack/react-router';
import { isExpectedVerdict, pitfallVerdict, type PitfallExperiment, type PitfallSide } from '@oversell/contracts';
import { useLiveRun } from '../hooks/useLiveRun';
import { useLocale } from '../i18n/use-locale';
import { formatContendedPhase } from '../lib/format';
import { runFigures } from '../lib/run-figures';
import { isFinished } from '../lib/run-status';
import { FaultList } from './FaultList';
import { LockTimeline } from './LockTimeline';
import { OutcomeCounts } from './OutcomeCounts';
import { StockHeadline } from './StockHeadline';
import { ReconciliationTable } from './ReconciliationTable';
import { RunTraceDiagram } from './SequenceDiagram';
import { RunFailedNotice } from './RunFailedNotice';
import { RunStatusBadge } from './RunStatusBadge';
import { ServiceError } from './ServiceError';

interface PitfallSidePanelProps {
  /** What judges the side: its preset, or a lesson's lab runs. */
  preset: PitfallExperiment;
  side: PitfallSide;
  /** The side's run; mount with key={runId}. */
  runId: string;
}

/** One side of a pitfall preset, live: its oversold counter, lock timeline with the faults, reconciliation and verdict. */
export function PitfallSidePanel({ preset, side, runId }: PitfallSidePanelProps) {
  const { t } = useTranslation();
  const locale = useLocale();
  const { run, live, error } = useLiveRun(runId);
  const figures = useMemo(() => (run ? runFigures(run, live) : undefined), [run, live]);
  // The stored result, once the stream delivered it, is what the verdict reads.
  const finishedRun = run?.result ? run : (live.finished ?? run);
  const verdict = pitfallVerdict(preset, side, finishedRun);

  return (
    <section className="panel pitfall-side" data-testid={`pitfall-side-${side.role}`} data-run-id={runId} data-verdict={verdict} aria-label={side.label[locale]}>
      <header className="run-header">
        <h3>
          <span className={`tag ${side.role === 'broken' ? 'tag--unsafe' : 'tag--safe'}`}>{t(side.role === 'broken' ? 'pitfalls.broken' : 'pitfalls.fix')}</span> {side.label[locale]}
        </h3>
        {figures && (
          <span role="status">
            <RunStatusBadge status={figures.status} failure={figures.failure} />
          </span>
        )}
        <p className={`verdict${isExpectedVerdict(verdict) ? ' verdict--expected' : verdict === 'pending' ? '' : ' verdict--unexpected'}`} data-testid="pitfall-verdict">
          {t(`verdict.${verdict}`)}
        </p>
        <p className="run-meta">
          <Link to="/runs/$runId" params={{ runId }}>
            {t('pitfalls.fullRun')}
          </Link>
        </p>
      </header>
      {error && !run && <ServiceError error={error} action={t('errors.action.loadRun', { id: runId })} />}
      {figures && (
        <>
          {figures.status === 'failed' && run ? (
            <RunFailedNotice run={run} failure={figures.failure} />
          ) : (
            <>
              <StockHeadline figures={figures.stock} initialStock={figures.initialStock} sold={figures.sold} remaining={figures.remaining} live={!isFinished(figures.status)} />
              {figures.counts && <OutcomeCounts counts={figures.counts} conflictRetries={figures.conflictRetries} />}
            </>
          )}
          {/* The hot key's cost is throughput: both sides' units/s, side by side. */}
          {figures.contendedPhase && (
            <p className="run-meta" data-testid="pitfall-contended-phase">
              {t('pitfalls.firstToSellOut', { phase: formatContendedPhase(figures.contendedPhase, t) })}
            </p>
          )}
          <FaultList faults={figures.faults} />
          <LockTimeline events={figures.lockEvents} faults={figures.faults} emptyText={isFinished(figures.status) ? t('runPanel.noHoldings') : t('runPanel.noHoldingsYet')} />
          {figures.reconciliation && <ReconciliationTable reconciliation={figures.reconciliation} />}
          {side.role === 'broken' && <RunTraceDiagram run={finishedRun} />}
        </>
      )}
    </section>
  );
}
