import { useMemo } from 'react';
import type { PitfallPreset, PitfallSide } from '@oversell/contracts';
import { useLiveRun } from '../hooks/useLiveRun';
import { formatContendedPhase } from '../lib/format';
import { isExpectedVerdict, pitfallVerdict, VERDICT_TEXT } from '../lib/pitfall-verdict';
import { routeHref } from '../lib/routes';
import { runFigures } from '../lib/run-figures';
import { isFinished } from '../lib/run-status';
import { FaultList } from './FaultList';
import { LockTimeline } from './LockTimeline';
import { OutcomeCounts } from './OutcomeCounts';
import { StockHeadline } from './StockHeadline';
import { ReconciliationTable } from './ReconciliationTable';
import { RunFailedNotice } from './RunFailedNotice';
import { RunStatusBadge } from './RunStatusBadge';
import { ServiceError } from './ServiceError';

interface PitfallSidePanelProps {
  preset: PitfallPreset;
  side: PitfallSide;
  /** The side's run; mount with key={runId}. */
  runId: string;
}

/** One side of a pitfall preset, live: its oversold counter, lock timeline with the faults, reconciliation and verdict. */
export function PitfallSidePanel({ preset, side, runId }: PitfallSidePanelProps) {
  const { run, live, error } = useLiveRun(runId);
  const figures = useMemo(() => (run ? runFigures(run, live) : undefined), [run, live]);
  // The stored result, once the stream delivered it, is what the verdict reads.
  const finishedRun = run?.result ? run : (live.finished ?? run);
  const verdict = pitfallVerdict(preset, side, finishedRun);

  return (
    <section className="panel pitfall-side" data-testid={`pitfall-side-${side.role}`} data-run-id={runId} data-verdict={verdict} aria-label={side.label}>
      <header className="run-header">
        <h3>
          <span className={`tag ${side.role === 'broken' ? 'tag--unsafe' : 'tag--safe'}`}>{side.role === 'broken' ? 'Broken' : 'Fix'}</span> {side.label}
        </h3>
        {figures && (
          <span role="status">
            <RunStatusBadge status={figures.status} failure={figures.failure} />
          </span>
        )}
        <p className={`verdict${isExpectedVerdict(verdict) ? ' verdict--expected' : verdict === 'pending' ? '' : ' verdict--unexpected'}`} data-testid="pitfall-verdict">
          {VERDICT_TEXT[verdict]}
        </p>
        <p className="run-meta">
          <a href={routeHref({ view: 'run', runId })}>the full run</a>
        </p>
      </header>
      {error && !run && <ServiceError error={error} action={`load run ${runId}`} />}
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
              First order to sell-out: {formatContendedPhase(figures.contendedPhase)}
            </p>
          )}
          <FaultList faults={figures.faults} />
          <LockTimeline events={figures.lockEvents} faults={figures.faults} emptyText={isFinished(figures.status) ? 'No lock holdings were recorded.' : 'No lock holdings yet.'} />
          {figures.reconciliation && <ReconciliationTable reconciliation={figures.reconciliation} />}
        </>
      )}
    </section>
  );
}
