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

  it('shows a complete exclusion check as a plain count', () => {
    render(<ReconciliationTable reconciliation={{ ...result().reconciliation, exclusionViolations: 0, lockEventsDropped: 0 }} />);
    const row = screen.getByTestId('reconciliation-exclusion-violations');
    expect(row).toHaveTextContent(/^Mutual-exclusion violations0$/);
    expect(row).not.toHaveClass('alarm-row');
  });
});
