import { useTranslation } from 'react-i18next';
import { unitsSoldTwice, type Reconciliation } from '@oversell/contracts';
import { formatCount, formatRequestIds } from '../lib/format';

/** The books after the run: does what was sold plus what is left add up to what there was? */
export function ReconciliationTable({ reconciliation: r }: { reconciliation: Reconciliation }) {
  const { t } = useTranslation();
  const rows: { label: string; value: string; alarm: boolean; testId: string }[] = [
    { label: t('reconciliation.initial'), value: formatCount(r.initialStock), alarm: false, testId: 'initial' },
    { label: t('reconciliation.sold'), value: formatCount(r.sold), alarm: false, testId: 'sold' },
    { label: t('reconciliation.orders'), value: formatCount(r.orders), alarm: false, testId: 'orders' },
    { label: t('reconciliation.remaining'), value: formatCount(r.remaining), alarm: r.remaining < 0, testId: 'remaining' },
    { label: t('reconciliation.soldTwice'), value: formatCount(unitsSoldTwice(r)), alarm: unitsSoldTwice(r) > 0, testId: 'sold-twice' },
    { label: t('reconciliation.oversold'), value: formatCount(r.oversold), alarm: r.oversold > 0, testId: 'oversold' },
    // Results from before lostUpdates existed counted the lost updates in lost.
    r.lostUpdates === undefined
      ? { label: t('reconciliation.lostBefore'), value: formatCount(r.lost), alarm: r.lost > 0, testId: 'lost' }
      : { label: t('reconciliation.lost'), value: formatCount(r.lost), alarm: r.lost > 0, testId: 'lost' },
    ...(r.lostUpdates === undefined ? [] : [{ label: t('reconciliation.lostUpdates'), value: formatCount(r.lostUpdates), alarm: r.lostUpdates > 0, testId: 'lost-updates' }]),
    // By request id: the store's moves against the orders (absent for a MySQL row, whose orders are its moves).
    ...(r.moves
      ? [
          { label: t('reconciliation.takenWithoutOrder'), value: formatRequestIds(r.moves.takenWithoutOrder, t), alarm: r.moves.takenWithoutOrder.count > 0, testId: 'taken-without-order' },
          { label: t('reconciliation.takenTwice'), value: formatRequestIds(r.moves.takenTwice, t), alarm: r.moves.takenTwice.count > 0, testId: 'taken-twice' },
          { label: t('reconciliation.orderedWithoutTake'), value: formatRequestIds(r.moves.orderedWithoutTake, t), alarm: r.moves.orderedWithoutTake.count > 0, testId: 'ordered-without-take' },
        ]
      : []),
    {
      label: t('reconciliation.exclusionViolations'),
      // Holdings past an instance's cap were not kept: the check saw only part of them.
      value: r.lockEventsDropped ? t('reconciliation.atLeast', { n: formatCount(r.exclusionViolations), dropped: formatCount(r.lockEventsDropped) }) : formatCount(r.exclusionViolations),
      alarm: r.exclusionViolations > 0 || Boolean(r.lockEventsDropped),
      testId: 'exclusion-violations',
    },
    // A queued run: orders not yet written when the reconciliation stopped waiting show as taken without an order.
    ...(r.ordersStillQueued === undefined ? [] : [{ label: t('reconciliation.stillQueued'), value: formatCount(r.ordersStillQueued), alarm: r.ordersStillQueued > 0, testId: 'still-queued' }]),
    // Takes whose order MySQL could not answer for when its write failed: kept or given back once it could.
    ...(r.settledLate && r.settledLate.pending + r.settledLate.kept + r.settledLate.givenBack > 0
      ? [
          {
            label: t('reconciliation.settledLate'),
            value: t('reconciliation.settledLateValue', { kept: formatCount(r.settledLate.kept), givenBack: formatCount(r.settledLate.givenBack), pending: formatCount(r.settledLate.pending) }),
            alarm: r.settledLate.pending > 0,
            testId: 'settled-late',
          },
        ]
      : []),
    { label: t('reconciliation.storesAgree'), value: r.storesAgree ? t('common.yes') : t('common.NO'), alarm: !r.storesAgree, testId: 'stores-agree' },
    ...(r.storeLost ? [{ label: t('reconciliation.storeLost'), value: t('common.YES'), alarm: true, testId: 'store-lost' }] : []),
  ];
  return (
    <section className="panel" data-testid="reconciliation">
      <h3>{t('reconciliation.title')}</h3>
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
