import { unitsSoldTwice, type Reconciliation } from '@oversell/contracts';
import { formatCount, formatRequestIds } from '../lib/format';

/** The books after the run: does what was sold plus what is left add up to what there was? */
export function ReconciliationTable({ reconciliation: r }: { reconciliation: Reconciliation }) {
  const rows: { label: string; value: string; alarm: boolean; testId: string }[] = [
    { label: 'Initial stock', value: formatCount(r.initialStock), alarm: false, testId: 'initial' },
    { label: 'Sold (units in orders)', value: formatCount(r.sold), alarm: false, testId: 'sold' },
    { label: 'Orders', value: formatCount(r.orders), alarm: false, testId: 'orders' },
    { label: 'Remaining in the store', value: formatCount(r.remaining), alarm: r.remaining < 0, testId: 'remaining' },
    { label: 'Units sold twice', value: formatCount(unitsSoldTwice(r)), alarm: unitsSoldTwice(r) > 0, testId: 'sold-twice' },
    { label: 'Oversold (sold beyond the initial stock)', value: formatCount(r.oversold), alarm: r.oversold > 0, testId: 'oversold' },
    // Results from before lostUpdates existed counted the lost updates in lost.
    r.lostUpdates === undefined
      ? { label: 'Lost (stock gone without an order, or the reverse)', value: formatCount(r.lost), alarm: r.lost > 0, testId: 'lost' }
      : { label: 'Lost (units taken with no order)', value: formatCount(r.lost), alarm: r.lost > 0, testId: 'lost' },
    ...(r.lostUpdates === undefined ? [] : [{ label: 'Lost updates (sales another write overwrote: units sold twice)', value: formatCount(r.lostUpdates), alarm: r.lostUpdates > 0, testId: 'lost-updates' }]),
    // By request id: the store's moves against the orders (absent for a MySQL row, whose orders are its moves).
    ...(r.moves
      ? [
          { label: 'Took stock, no order (by request id)', value: formatRequestIds(r.moves.takenWithoutOrder), alarm: r.moves.takenWithoutOrder.count > 0, testId: 'taken-without-order' },
          { label: 'Took stock twice (by request id)', value: formatRequestIds(r.moves.takenTwice), alarm: r.moves.takenTwice.count > 0, testId: 'taken-twice' },
          { label: 'Ordered, took no stock (by request id)', value: formatRequestIds(r.moves.orderedWithoutTake), alarm: r.moves.orderedWithoutTake.count > 0, testId: 'ordered-without-take' },
        ]
      : []),
    {
      label: 'Mutual-exclusion violations',
      // Holdings past an instance's cap were not kept: the check saw only part of them.
      value: r.lockEventsDropped ? `at least ${formatCount(r.exclusionViolations)} (${formatCount(r.lockEventsDropped)} lock holdings not kept, not checked)` : formatCount(r.exclusionViolations),
      alarm: r.exclusionViolations > 0 || Boolean(r.lockEventsDropped),
      testId: 'exclusion-violations',
    },
    // A queued run: orders not yet written when the reconciliation stopped waiting show as taken without an order.
    ...(r.ordersStillQueued === undefined ? [] : [{ label: 'Orders still queued (not written to MySQL: waiting, or their jobs failed for good)', value: formatCount(r.ordersStillQueued), alarm: r.ordersStillQueued > 0, testId: 'still-queued' }]),
    { label: 'Stores agree', value: r.storesAgree ? 'yes' : 'NO', alarm: !r.storesAgree, testId: 'stores-agree' },
    ...(r.storeLost ? [{ label: 'Stock store lost (Redis lost the run\'s keys: remaining and lost are not measured)', value: 'YES', alarm: true, testId: 'store-lost' }] : []),
  ];
  return (
    <section className="panel" data-testid="reconciliation">
      <h3>Reconciliation</h3>
      <table className="figures">
        <tbody>
          {rows.map((row) => (
            <tr key={row.testId} className={row.alarm ? 'alarm-row' : undefined} data-testid={`reconciliation-${row.testId}`}>
              <th scope="row">{row.label}</th>
              <td>{row.value}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </section>
  );
}
