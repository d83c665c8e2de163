import { Trans, useTranslation } from 'react-i18next';
import { Link } from '@tanstack/react-router';
import { unitsSoldTwice } from '@oversell/contracts';
import { useRuns } from '../api/queries';
import { ExportButtons } from '../components/ExportButtons';
import { RunStatusBadge } from '../components/RunStatusBadge';
import { ServiceError } from '../components/ServiceError';
import { formatCount, formatMs, formatRate, formatTime } from '../lib/format';
import { describeComparedSettings, noopRole } from '../lib/run-description';
import { historyTable } from '../lib/run-tables';

/** Past runs, as stored by the service: the same list in every browser and after a reload. */
export function HistoryView() {
  const { t } = useTranslation();
  const runs = useRuns();
  if (runs.error) return <ServiceError error={runs.error} action={t('errors.action.loadRuns')} onRetry={() => void runs.refetch()} />;
  if (!runs.data) return <p className="empty">{t('common.loadingRuns')}</p>;
  if (runs.data.length === 0) {
    return (
      <p className="empty" data-testid="history-empty">
        <Trans i18nKey="history.empty" components={{ lab: <Link to="/lab/{-$runId}" params={{ runId: undefined }} /> }} />
      </p>
    );
  }

  return (
    <div className="view" data-testid="history-view">
      <div className="table-tools">
        <ExportButtons name="history" table={historyTable(runs.data)} />
      </div>
      <div className="table-scroll">
        <table className="runs-table runs-table--sticky">
          <caption>{t('history.caption', { count: runs.data.length })}</caption>
          <thead>
            <tr>
              <th scope="col">{t('history.column.run')}</th>
              <th scope="col">{t('history.column.started')}</th>
              <th scope="col">{t('history.column.status')}</th>
              <th scope="col">{t('history.column.stock')}</th>
              <th scope="col">{t('compare.column.soldTwice')}</th>
              <th scope="col">{t('compare.column.beyondStock')}</th>
              <th scope="col">{t('compare.column.throughput')}</th>
              <th scope="col">p99</th>
              <th scope="col">{t('compare.column.settings')}</th>
            </tr>
          </thead>
          <tbody>
            {runs.data.map((run) => {
              const reconciliation = run.result?.reconciliation;
              const soldTwice = reconciliation && unitsSoldTwice(reconciliation);
              const oversold = reconciliation?.oversold;
              const role = noopRole(run.params);
              return (
                <tr key={run.id} data-testid="history-row" data-run-id={run.id}>
                  <th scope="row">
                    <Link to="/runs/$runId" params={{ runId: run.id }}>
                      {run.params.strategy}
                    </Link>
                    {role && <small> {t(`run.role.${role}`)}</small>}
                    {run.params.scenario && <small> {run.params.scenario}</small>}
                  </th>
                  <td>{formatTime(run.startedAt ?? run.createdAt)}</td>
                  <td>
                    <RunStatusBadge status={run.status} failure={run.failure} />
                  </td>
                  <td>{formatCount(run.params.initialStock)}</td>
                  <td data-testid="history-sold-twice" className={soldTwice ? 'alarm-text' : undefined}>
                    {formatCount(soldTwice)}
                  </td>
                  <td className={oversold ? 'alarm-text' : undefined}>{formatCount(oversold)}</td>
                  <td>{formatRate(run.result?.throughput)}</td>
                  <td>{formatMs(run.result?.latency.p99)}</td>
                  <td className="settings-cell">{!role && describeComparedSettings(run.params, t)}</td>
                </tr>
              );
            })}
          </tbody>
        </table>
      </div>
    </div>
  );
}
