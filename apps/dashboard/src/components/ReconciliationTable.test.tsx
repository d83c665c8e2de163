import { render, screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { result } from '../test/fixtures';
import { ReconciliationTable } from './ReconciliationTable';

describe('ReconciliationTable', () => {
  it('says so, as an alarm, when the run\'s stock store was lost', () => {
    render(<ReconciliationTable reconciliation={{ ...result().reconciliation, storeLost: true }} />);
    const row = screen.getByTestId('reconciliation-store-lost');
    expect(row).toHaveTextContent(/Stock store lost/);
    expect(row).toHaveClass('alarm-row');
  });

  it('says how the orders MySQL could not answer for were settled once it came back, an alarm while some still wait', () => {
    render(<ReconciliationTable reconciliation={{ ...result().reconciliation, settledLate: { pending: 1, kept: 2, givenBack: 95 } }} />);
    const row = screen.getByTestId('reconciliation-settled-late');
    expect(row).toHaveTextContent('2 kept, 95 given back, 1 still waiting');
    expect(row).toHaveClass('alarm-row');
  });

  it('shows no store-lost row for a store that kept its keys (or a result from before the flag)', () => {
    render(<ReconciliationTable reconciliation={result().reconciliation} />);
    expect(screen.queryByTestId('reconciliation-store-lost')).toBeNull();
  });

  it('says the exclusion check is incomplete, as an alarm, when instances dropped lock holdings past their cap', () => {
    render(<ReconciliationTable reconciliation={{ ...result().reconciliation, exclusionViolations: 0, lockEventsDropped: 1200 }} />);
    const row = screen.getByTestId('reconciliation-exclusion-violations');
    expect(row).toHaveTextContent('at least 0 (1,200 lock holdings not kept, not checked)');
    expect(row).toHaveClass('alarm-row');
  });

  it('lists by request id what the totals hide, as alarms, and names the lost updates apart from lost', () => {
    const none = { count: 0, units: 0, first: [] };
    const moves = { requests: 60, unitsTaken: 57, unitsWithoutOrder: 2, takenWithoutOrder: { count: 1, units: 1, first: ['b1'] }, takenTwice: { count: 7, units: 7, first: ['a1', 'a2', 'a3', 'a4', 'a5'] }, orderedWithoutTake: none };
    render(<ReconciliationTable reconciliation={{ ...result().reconciliation, lost: 2, lostUpdates: 3, moves }} />);
    expect(screen.getByTestId('reconciliation-lost')).toHaveTextContent(/^Lost \(units taken with no order\)2$/);
    expect(screen.getByTestId('reconciliation-lost-updates')).toHaveTextContent(/3$/);
    expect(screen.getByTestId('reconciliation-taken-without-order')).toHaveTextContent('1 request, 1 unit: b1');
    expect(screen.getByTestId('reconciliation-taken-twice')).toHaveTextContent('7 requests, 7 units: a1, a2, a3, a4, a5, …');
    expect(screen.getByTestId('reconciliation-taken-twice')).toHaveClass('alarm-row');
    expect(screen.getByTestId('reconciliation-ordered-without-take')).not.toHaveClass('alarm-row');
  });

  it('shows no by-id rows where the store keeps no moves (a MySQL row) or the result predates them', () => {
    render(<ReconciliationTable reconciliation={{ ...result().reconciliation, lostUpdates: 0, moves: null }} />);
    expect(screen.queryByTestId('reconciliation-taken-twice')).toBeNull();
    expect(screen.getByTestId('reconciliation-lost-updates')).toHaveTextContent(/0$/);
  });

  it('shows a complete exclusion check as a plain count', () => {
    render(<ReconciliationTable reconciliation={{ ...result().reconciliation, exclusionViolations: 0, lockEventsDropped: 0 }} />);
    const row = screen.getByTestId('reconciliation-exclusion-violations');
    expect(row).toHaveTextContent(/^Mutual-exclusion violations0$/);
    expect(row).not.toHaveClass('alarm-row');
  });
});
