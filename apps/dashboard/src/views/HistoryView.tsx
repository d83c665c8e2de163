import { unitsSoldTwice } from '@oversell/contracts';
import { useRuns } from '../api/queries';
import { RunStatusBadge } from '../components/RunStatusBadge';
import { ServiceError } from '../components/ServiceError';
import { formatCount, formatMs, formatRate, formatTime } from '../lib/format';
import { routeHref } from '../lib/routes';
import { noopRole } from '../lib/run-description';

/** Past runs, as stored by the service: the same list in every browser and after a reload. */
export function HistoryView() {
  const runs = useRuns();
  if (runs.error) return <ServiceError error={runs.error} action="load the runs" onRetry={() => void runs.refetch()} />;
  if (!runs.data) return <p className="empty">Loading runs…</p>;
  if (runs.data.length === 0) {
    return (
      <p className="empty" data-testid="history-empty">
        No runs yet. Start one in the <a href={routeHref({ view: 'lab' })}>lab</a>.
      </p>
    );
  }

  return (
    <div className="view" data-testid="history-view">
      <div className="table-scroll">
        <table className="runs-table">
          <caption>Latest {runs.data.length} runs, newest first</caption>
          <thead>
            <tr>
              <th scope="col">Run</th>
              <th scope="col">Started</th>
              <th scope="col">Status</th>
              <th scope="col">Stock</th>
              <th scope="col">Sold twice</th>
              <th scope="col">Beyond stock</th>
              <th scope="col">Throughput</th>
              <th scope="col">p99</th>
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
                    <a href={routeHref({ view: 'run', runId: run.id })}>{run.params.strategy}</a>
                    {role && <small> {role}</small>}
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
                </tr>
              );
            })}
          </tbody>
        </table>
      </div>
    </div>
  );
}
