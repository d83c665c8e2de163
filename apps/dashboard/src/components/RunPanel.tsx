import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import type { RunView } from '@oversell/contracts';
import { useStrategies } from '../api/queries';
import { useLiveRun } from '../hooks/useLiveRun';
import { useTargetTitle } from '../i18n/strategy-texts';
import { formatContendedPhase, formatMs, formatTime } from '../lib/format';
import { describeRunParams, noopRole } from '../lib/run-description';
import { runFigures } from '../lib/run-figures';
import { stockDrain } from '../lib/stock-points';
import { isFinished } from '../lib/run-status';
import { toTimelineRows } from '../lib/timeline';
import { CeilingMeasurement } from './CeilingMeasurement';
import { ExportButtons } from './ExportButtons';
import { FaultList } from './FaultList';
import { LockTimeline } from './LockTimeline';
import { OrderQueueChart } from './OrderQueueChart';
import { OutcomeCounts } from './OutcomeCounts';
import { StockHeadline } from './StockHeadline';
import { ReconciliationTable } from './ReconciliationTable';
import { RunTraceDiagram } from './SequenceDiagram';
import { RunFailedNotice } from './RunFailedNotice';
import { RunStatusBadge } from './RunStatusBadge';
import { RunSummary } from './RunSummary';
import { ServiceError } from './ServiceError';
import { StockChart } from './StockChart';
import { ThroughputChart } from './ThroughputChart';

interface RunPanelProps {
  runId: string;
  /** Starts a new run with this run's settings; offered once the run has finished. */
  onRunAgain?: (run: RunView) => void;
  runningAgain?: boolean;
}

/** Everything about one run: live while it runs, from its stored result afterwards. Mount with key={runId}. */
export function RunPanel({ runId, onRunAgain, runningAgain = false }: RunPanelProps) {
  const { t } = useTranslation();
  const { run, live, error, isLoading } = useLiveRun(runId);
  const strategies = useStrategies();
  const title = useTargetTitle();
  const figures = useMemo(() => (run ? runFigures(run, live) : undefined), [run, live]);
  const rows = useMemo(() => toTimelineRows(figures?.timeline ?? []), [figures?.timeline]);

  if (error && !run) return <ServiceError error={error} action={t('errors.action.loadRun', { id: runId })} />;
  if (isLoading || !run || !figures) return <p className="empty">{t('runPanel.loading', { id: runId })}</p>;

  const strategy = strategies.data?.find((s) => s.name === run.params.strategy);
  const takesLocks = strategy?.kind === 'lock';
  const finished = isFinished(figures.status);
  // A no-op run measures the ceiling: it has no stock, no orders and no lock to show.
  const role = noopRole(run.params);

  return (
    <section className="run-panel" data-testid="run-panel" data-run-id={run.id} aria-label={t('runPanel.label', { id: run.id })}>
      <header className="run-header">
        <h2>
          {title(run.params.strategy)}
          {role && ` (${t(`run.role.${role}`)})`}
        </h2>
        <span role="status">
          <RunStatusBadge status={figures.status} failure={figures.failure} />
        </span>
        <p className="run-meta">
          {t('runPanel.started', { settings: describeRunParams(run.params, t), time: formatTime(run.startedAt ?? run.createdAt) })}
        </p>
        <div className="run-actions">
          {onRunAgain && finished && !role && (
            <button type="button" className="button button--primary button--small" data-testid="run-again" disabled={runningAgain} onClick={() => onRunAgain(run)}>
              {runningAgain ? t('form.starting') : t('runPanel.runAgain')}
            </button>
          )}
          {/* The run as the service stores it, settings and every figure, to keep or to compare elsewhere. */}
          {finished && <ExportButtons name="run" filename={`run-${run.id}`} value={run} />}
        </div>
      </header>

      {!finished && <RunSummary run={run} figures={figures} />}

      {figures.status === 'failed' ? (
        <RunFailedNotice run={run} failure={figures.failure} />
      ) : role ? (
        <CeilingMeasurement run={run} />
      ) : (
        <div className="run-headline">
          <StockHeadline figures={figures.stock} initialStock={figures.initialStock} sold={figures.sold} remaining={figures.remaining} live={!finished} />
          {figures.counts ? <OutcomeCounts counts={figures.counts} conflictRetries={figures.conflictRetries} /> : <p className="empty">{t('runPanel.noOrders')}</p>}
        </div>
      )}

      {figures.contendedPhase && (
        <p className="run-meta" data-testid="contended-phase">
          {t('runPanel.contendedPhase', {
            phase: formatContendedPhase(figures.contendedPhase, t),
            p50: formatMs(figures.contendedPhase.p50),
            p99: formatMs(figures.contendedPhase.p99),
          })}
        </p>
      )}

      <div className="chart-grid">
        {!role && <StockChart timeline={figures.timeline} initialStock={figures.initialStock} drain={stockDrain(run)} />}
        <ThroughputChart rows={rows} />
        {run.result?.orderWrite && <OrderQueueChart orderWrite={run.result.orderWrite} />}
      </div>

      {!role && (
        <>
          <FaultList faults={figures.faults} />
          <LockTimeline
            events={figures.lockEvents}
            faults={figures.faults}
            emptyText={
              strategy && !takesLocks
                ? t('runPanel.takesNoLock')
                : finished
                  ? t('runPanel.noHoldings')
                  : t('runPanel.noHoldingsYet')
            }
          />
          {figures.reconciliation && <ReconciliationTable reconciliation={figures.reconciliation} />}
          <RunTraceDiagram run={run} />
        </>
      )}
    </section>
  );
}
