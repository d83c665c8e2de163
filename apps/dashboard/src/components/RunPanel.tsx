import { useMemo } from 'react';
import { NOOP_TARGET, type RunParams } from '@oversell/contracts';
import { useStrategies } from '../api/queries';
import { useLiveRun } from '../hooks/useLiveRun';
import { formatContendedPhase, formatMs, formatTime } from '../lib/format';
import { runFigures } from '../lib/run-figures';
import { isFinished } from '../lib/run-status';
import { toTimelineRows } from '../lib/timeline';
import { FaultList } from './FaultList';
import { LockTimeline } from './LockTimeline';
import { OrderQueueChart } from './OrderQueueChart';
import { OutcomeCounts } from './OutcomeCounts';
import { OversoldCounter } from './OversoldCounter';
import { ReconciliationTable } from './ReconciliationTable';
import { RunStatusBadge } from './RunStatusBadge';
import { ServiceError } from './ServiceError';
import { StockChart } from './StockChart';
import { ThroughputChart } from './ThroughputChart';

function describeParams(params: RunParams): string {
  const { load } = params;
  const bound = load.durationSec !== undefined ? `${load.durationSec} s` : `${load.totalRequests} requests`;
  return [
    `stock ${params.initialStock}`,
    params.lockTtlMs !== undefined && `lock TTL ${params.lockTtlMs} ms`,
    params.businessDelayMs !== undefined && `business delay ${params.businessDelayMs} ms`,
    params.segments !== undefined && `${params.segments} segments`,
    params.orderWrite === 'queued' && 'orders written through the queue',
    `${load.connections} connections`,
    bound,
    load.arrivalRate !== undefined && `${load.arrivalRate} req/s arrival`,
    params.scenario && `scenario ${params.scenario}`,
    params.faults?.length && `faults: ${params.faults.map((f) => f.kind).join(', ')}`,
  ]
    .filter(Boolean)
    .join(' · ');
}

/** Everything about one run: live while it runs, from its stored result afterwards. Mount with key={runId}. */
export function RunPanel({ runId }: { runId: string }) {
  const { run, live, error, isLoading } = useLiveRun(runId);
  const strategies = useStrategies();
  const figures = useMemo(() => (run ? runFigures(run, live) : undefined), [run, live]);
  const rows = useMemo(() => toTimelineRows(figures?.timeline ?? []), [figures?.timeline]);

  if (error && !run) return <ServiceError error={error} action={`load run ${runId}`} />;
  if (isLoading || !run || !figures) return <p className="empty">Loading run {runId}…</p>;

  const strategy = strategies.data?.find((s) => s.name === run.params.strategy);
  const takesLocks = strategy?.kind === 'lock';
  const finished = isFinished(figures.status);

  return (
    <section className="run-panel" data-testid="run-panel" data-run-id={run.id} aria-label={`Run ${run.id}`}>
      <header className="run-header">
        <h2>
          {strategy?.title ?? run.params.strategy}
          {run.params.strategy === NOOP_TARGET && (run.params.warmUp ? ' (warm-up, discarded)' : ' (no-op ceiling)')}
        </h2>
        <span role="status">
          <RunStatusBadge status={figures.status} failure={figures.failure} />
        </span>
        <p className="run-meta">
          {describeParams(run.params)} · started {formatTime(run.startedAt ?? run.createdAt)}
        </p>
      </header>

      <div className="run-headline">
        <OversoldCounter oversold={figures.oversold} live={!finished} />
        {figures.counts ? <OutcomeCounts counts={figures.counts} conflictRetries={figures.conflictRetries} /> : <p className="empty">No orders yet.</p>}
      </div>

      {figures.contendedPhase && (
        <p className="run-meta" data-testid="contended-phase">
          Contended phase (first order to sell-out): {formatContendedPhase(figures.contendedPhase)}, p50 {formatMs(figures.contendedPhase.p50)}, p99{' '}
          {formatMs(figures.contendedPhase.p99)}
        </p>
      )}

      <div className="chart-grid">
        <StockChart rows={rows} initialStock={run.params.initialStock} />
        <ThroughputChart rows={rows} />
        {run.result?.orderWrite && <OrderQueueChart orderWrite={run.result.orderWrite} />}
      </div>

      <FaultList faults={figures.faults} />

      <LockTimeline
        events={figures.lockEvents}
        faults={figures.faults}
        emptyText={
          strategy && !takesLocks
            ? 'This strategy takes no lock, so there are no holdings to draw.'
            : finished
              ? 'No lock holdings were recorded.'
              : 'No lock holdings yet.'
        }
      />

      {figures.reconciliation && <ReconciliationTable reconciliation={figures.reconciliation} />}
    </section>
  );
}
