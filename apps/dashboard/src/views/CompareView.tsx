import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from '@tanstack/react-router';
import { Bar, LabelList } from 'recharts';
import { isCeilingRun, type RunBatchRequest } from '@oversell/contracts';
import { useRuns, useScenarios, useStartBatch } from '../api/queries';
import { useLocale } from '../i18n/use-locale';
import { CHART_COLORS } from '../components/chart-colors';
import { ExportButtons } from '../components/ExportButtons';
import { ServiceError } from '../components/ServiceError';
import { StrategyBarChart } from '../components/StrategyBarChart';
import { numberAxis } from '../lib/axis';
import { formatRatio, ratioLabel } from '../lib/ceiling';
import { buildCompareRows, settingsSeen } from '../lib/compare-rows';
import { formatContendedPhase, formatCount, formatMs, formatMsTick, formatRate, formatTick } from '../lib/format';
import { describeComparedSettings } from '../lib/run-description';
import { compareTable } from '../lib/run-tables';
import { scenarioToBatchRequest, toBatchRequest, type RunFormValues } from '../lib/run-form';
import { isFinished } from '../lib/run-status';

/** The scenario picker's value for "use the lab form's settings". */
const FORM_SETTINGS = '';
/** The settings filter's value for "runs with any settings". */
const ALL_SETTINGS = '*';

interface CompareViewProps {
  /** The lab form, the default scenario for "run all". */
  values: RunFormValues;
}

/** Every strategy's latest completed run side by side, against the no-op ceiling. */
export function CompareView({ values }: CompareViewProps) {
  const { t } = useTranslation();
  const locale = useLocale();
  const runs = useRuns();
  const scenarios = useScenarios();
  const startBatch = useStartBatch();
  const [scenarioName, setScenarioName] = useState(FORM_SETTINGS);
  const seen = useMemo(() => settingsSeen(runs.data ?? []), [runs.data]);
  // Until one is picked, the latest run's settings: the comparison a "run all" just made.
  const [picked, setPicked] = useState<string>();
  const filter = picked ?? seen[0]?.key ?? ALL_SETTINGS;
  const rows = useMemo(() => buildCompareRows(runs.data ?? [], filter === ALL_SETTINGS ? undefined : filter), [runs.data, filter]);
  const ceiling = runs.data?.find(isCeilingRun);

  const batchId = startBatch.data?.batchId;
  const batchRuns = runs.data?.filter((r) => batchId && r.params.batchId === batchId) ?? [];
  const batchDone = batchRuns.filter((r) => isFinished(r.status)).length;

  const runAll = () => {
    const scenario = scenarios.data?.find((s) => s.name === scenarioName);
    const batch: RunBatchRequest = scenario ? scenarioToBatchRequest(scenario) : toBatchRequest(values);
    startBatch.mutate(batch);
  };

  const chartRows = rows
    .filter((r) => r.run)
    .map((r) => ({
      strategy: r.strategy,
      soldTwice: r.soldTwice,
      lost: r.lost,
      throughput: r.throughput,
      ratioLabel: ratioLabel(r.ceilingRatio, locale),
      p50: r.p50,
      p99: r.p99,
    }));
  const highest = (pick: (row: (typeof chartRows)[number]) => number | undefined) => Math.max(0, ...chartRows.map((r) => pick(r) ?? 0));
  // Round ticks on every axis, each as wide as its longest label.
  const correctnessAxis = numberAxis(highest((r) => Math.max(r.soldTwice ?? 0, r.lost ?? 0)), formatTick);
  // Headroom above the tallest bar for its share-of-ceiling label.
  const throughputAxis = numberAxis(highest((r) => r.throughput) * 1.15, formatTick);
  const latencyAxis = numberAxis(highest((r) => Math.max(r.p50 ?? 0, r.p99 ?? 0)), formatMsTick);

  return (
    <div className="view compare" data-testid="compare-view">
      <section className="panel run-all">
        <h2>{t('compare.title')}</h2>
        <p>{t('compare.intro')}</p>
        <div className="run-all-controls">
          <div className="field">
            <label htmlFor="batch-scenario">{t('compare.settings')}</label>
            <select id="batch-scenario" data-testid="batch-scenario" value={scenarioName} onChange={(e) => setScenarioName(e.target.value)}>
              <option value={FORM_SETTINGS}>{t('compare.formSettings')}</option>
              {scenarios.data?.map((s) => (
                <option key={s.name} value={s.name}>
                  {t('compare.scenario', { name: s.name })}
                </option>
              ))}
            </select>
          </div>
          <button type="button" className="button button--primary" data-testid="run-all" onClick={runAll} disabled={startBatch.isPending}>
            {startBatch.isPending ? t('common.queuing') : t('compare.runAll')}
          </button>
        </div>
        {startBatch.error && <ServiceError error={startBatch.error} action={t('errors.action.queueRuns')} />}
        {batchId && (
          <p role="status" data-testid="batch-progress">
            {t('compare.batchProgress', { id: batchId, done: batchDone, total: startBatch.data?.runs.length ?? 0 })}
          </p>
        )}
      </section>

      {runs.error && <ServiceError error={runs.error} action={t('errors.action.loadRuns')} onRetry={() => void runs.refetch()} />}
      {!runs.data && !runs.error && <p className="empty">{t('common.loadingRuns')}</p>}

      <p data-testid="ceiling">
        {t('compare.ceiling')}{' '}
        {ceiling?.result ? (
          <>
            <strong>{formatRate(ceiling.result.throughput)}</strong> {t('compare.ceilingLatest')}
          </>
        ) : (
          t('compare.ceilingNone')
        )}
      </p>

      {chartRows.length > 0 && (
        <div className="chart-grid chart-grid--three">
          <StrategyBarChart title={t('compare.soldTwiceChart')} hint={t('compare.soldTwiceHint')} testId="compare-sold-twice-chart" rows={chartRows} yAxis={{ ...correctnessAxis, allowDecimals: false }}>
            <Bar dataKey="soldTwice" name={t('compare.soldTwiceBar')} fill={CHART_COLORS.alarm} isAnimationActive={false} />
            <Bar dataKey="lost" name={t('compare.lostBar')} fill={CHART_COLORS.sold} isAnimationActive={false} />
          </StrategyBarChart>
          <StrategyBarChart title={t('compare.throughputChart')} hint={t('compare.throughputHint')} testId="compare-throughput-chart" rows={chartRows} yAxis={throughputAxis}>
            <Bar dataKey="throughput" name={t('charts.throughput.requestsPerSec')} fill={CHART_COLORS.rate} isAnimationActive={false}>
              <LabelList dataKey="ratioLabel" position="top" />
            </Bar>
          </StrategyBarChart>
          <StrategyBarChart title={t('compare.latencyChart')} hint={t('compare.latencyHint')} testId="compare-latency-chart" rows={chartRows} yAxis={latencyAxis}>
            <Bar dataKey="p50" name={t('compare.p50Bar')} fill={CHART_COLORS.rate} isAnimationActive={false} />
            <Bar dataKey="p99" name={t('charts.throughput.p99')} fill={CHART_COLORS.latency} isAnimationActive={false} />
          </StrategyBarChart>
        </div>
      )}

      {runs.data && (
        <div className="table-tools">
          <div className="field">
            <label htmlFor="compare-filter">{t('compare.filter')}</label>
            <select id="compare-filter" data-testid="compare-filter" value={filter} onChange={(e) => setPicked(e.target.value)}>
              {seen.map(({ key, run }) => (
                <option key={key} value={key}>
                  {describeComparedSettings(run.params, t)}
                </option>
              ))}
              <option value={ALL_SETTINGS}>{t('compare.allSettings')}</option>
            </select>
          </div>
          <ExportButtons name="compare" table={compareTable(rows)} />
        </div>
      )}

      {runs.data && (
        <div className="table-scroll">
          <table className="runs-table runs-table--sticky" data-testid="compare-table">
            <caption>{t('compare.caption')}</caption>
            <thead>
              <tr>
                <th scope="col">{t('compare.column.strategy')}</th>
                <th scope="col">{t('compare.column.soldTwice')}</th>
                <th scope="col">{t('compare.column.beyondStock')}</th>
                <th scope="col">{t('compare.column.lost')}</th>
                <th scope="col">{t('compare.column.throughput')}</th>
                <th scope="col">{t('compare.column.ofCeiling')}</th>
                <th scope="col">p50</th>
                <th scope="col">p99</th>
                <th scope="col">{t('compare.column.contendedPhase')}</th>
                <th scope="col">{t('compare.column.settings')}</th>
              </tr>
            </thead>
            <tbody>
              {rows.map((row) => (
                <tr key={row.strategy} data-testid={`compare-row-${row.strategy}`} data-has-run={Boolean(row.run)}>
                  <th scope="row">
                    {row.run ? <Link to="/runs/$runId" params={{ runId: row.run.id }}>
                        {row.strategy}
                      </Link> : row.strategy}
                    {row.pending && <small className="pending">{t('compare.running')}</small>}
                  </th>
                  <td data-testid="compare-sold-twice" className={row.soldTwice ? 'alarm-text' : undefined}>
                    {formatCount(row.soldTwice)}
                  </td>
                  <td data-testid="compare-oversold" className={row.oversold ? 'alarm-text' : undefined}>
                    {formatCount(row.oversold)}
                  </td>
                  <td data-testid="compare-lost" className={row.lost ? 'alarm-text' : undefined}>
                    {formatCount(row.lost)}
                  </td>
                  <td data-testid="compare-throughput">{formatRate(row.throughput)}</td>
                  <td data-testid="compare-ratio">{formatRatio(row.ceilingRatio, locale)}</td>
                  <td data-testid="compare-p50">{formatMs(row.p50)}</td>
                  <td data-testid="compare-p99">{formatMs(row.p99)}</td>
                  <td data-testid="compare-phase">{formatContendedPhase(row.contendedPhase, t)}</td>
                  <td data-testid="compare-settings" className="settings-cell">
                    {row.run && describeComparedSettings(row.run.params, t)}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </div>
  );
}
