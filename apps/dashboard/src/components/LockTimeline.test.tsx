import { render, screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { faultEvent, lockEvent } from '../test/fixtures';
import { MAX_DRAWN_LOCK_EVENTS } from '../lib/lock-lanes';
import { LockTimeline } from './LockTimeline';

describe('LockTimeline', () => {
  it('marks the holdings that overlap another holder of the same key, and the expired ones', () => {
    render(
      <LockTimeline
        emptyText="none"
        events={[
          lockEvent({ instance: 'order-1', requestId: 'a', requestedAt: -5, acquiredAt: 0, releasedAt: 50, expired: true }),
          lockEvent({ instance: 'order-2', requestId: 'b', acquiredAt: 30, releasedAt: 60 }),
          lockEvent({ instance: 'order-1', requestId: 'c', acquiredAt: 70, releasedAt: 80 }),
        ]}
      />,
    );
    expect(screen.getByRole('img', { name: 'order-1: 2 holdings, 1 overlapping' })).toBeInTheDocument();
    expect(screen.getByRole('img', { name: 'order-2: 1 holding, 1 overlapping' })).toBeInTheDocument();
    const bars = screen.getAllByTestId('lock-bar');
    expect(bars.filter((b) => b.getAttribute('data-overlap') === 'true')).toHaveLength(2);
    expect(bars.filter((b) => b.classList.contains('lock-bar--overlap'))).toHaveLength(2);
    expect(bars.filter((b) => b.getAttribute('data-expired') === 'true')).toHaveLength(1);
    expect(screen.getByTestId('lock-overlap-count')).toHaveTextContent('2 overlapping');
    expect(screen.getByTestId('lock-overlap-count')).toHaveClass('alarm-text');
    expect(screen.getByTestId('lock-expired-count')).toHaveTextContent('1 expired');
    // The counts on the figure itself, for scripts (the e2e) that only need the numbers.
    const timeline = screen.getByTestId('lock-timeline');
    expect(timeline).toHaveAttribute('data-overlaps', '2');
    expect(timeline).toHaveAttribute('data-holdings', '3');
    expect(timeline).toHaveAttribute('data-expired', '1');
    expect(screen.getByText(/a on order-1 for 50\.0 ms \(waited 5\.0 ms\) — OVERLAPS another holder of the same key — lease expired/)).toBeInTheDocument();
  });

  it('draws only the latest holdings of a huge run and says so', () => {
    const events = Array.from({ length: MAX_DRAWN_LOCK_EVENTS + 500 }, (_, i) =>
      lockEvent({ requestId: `r${i}`, acquiredAt: i * 10, releasedAt: i * 10 + 5 }),
    );
    render(<LockTimeline emptyText="none" events={events} />);
    expect(screen.getAllByTestId('lock-bar')).toHaveLength(MAX_DRAWN_LOCK_EVENTS);
    expect(screen.getByText(/2,500 holdings/)).toHaveTextContent('(showing the latest 2,000)');
    expect(screen.getByTestId('lock-overlap-count')).toHaveTextContent('0 overlapping');
    expect(screen.getByTestId('lock-timeline')).toHaveAttribute('data-overlaps', '0');
    expect(screen.getByTestId('lock-timeline')).toHaveAttribute('data-holdings', '2500');
  });

  it('marks each fault on its instance\'s lane, with a legend: a crash as a cross, a pause as a span', () => {
    render(
      <LockTimeline
        emptyText="none"
        events={[lockEvent({ instance: 'order-1', acquiredAt: 0, releasedAt: 50 })]}
        faults={[
          faultEvent({ kind: 'pause', instance: 'order-1', startedAt: 10, endedAt: 40 }),
          faultEvent({ kind: 'crash', at: 'lock-set-before-expire', instance: 'order-2', startedAt: 20, endedAt: null }),
        ]}
      />,
    );
    expect(screen.getByRole('img', { name: 'order-1: 1 holding, 0 overlapping, 1 fault' })).toBeInTheDocument();
    expect(screen.getByRole('img', { name: 'order-2: 0 holdings, 0 overlapping, 1 fault' })).toBeInTheDocument();
    const marks = screen.getAllByTestId('fault-mark');
    expect(marks.map((m) => [m.getAttribute('data-kind'), m.getAttribute('data-shape')])).toEqual([
      ['pause', 'span'],
      ['crash', 'cross'],
    ]);
    // The span covers 10 … 40 of an axis from 0 to 50.
    expect(marks[0]).toHaveAttribute('x', '20%');
    expect(marks[0]).toHaveAttribute('width', '60%');
    expect(marks[1]).toHaveAttribute('x', '40%');
    expect(screen.getByTestId('fault-legend')).toHaveTextContent('crash');
    expect(screen.getByTestId('lock-timeline')).toHaveAttribute('data-faults', '2');
    expect(screen.getByText(/crash at lock-set-before-expire on order-2 \(order r1\) — the process died here/)).toBeInTheDocument();
  });

  it('draws the lanes of a run that took no lock but had faults', () => {
    render(<LockTimeline emptyText="no lock" events={[]} faults={[faultEvent({ kind: 'crash', endedAt: null })]} />);
    expect(screen.queryByText('no lock')).not.toBeInTheDocument();
    expect(screen.getAllByTestId('fault-mark')).toHaveLength(1);
  });

  it('says why there is nothing to draw', () => {
    render(<LockTimeline emptyText="This strategy takes no lock." events={[]} />);
    expect(screen.getByText('This strategy takes no lock.')).toBeInTheDocument();
    expect(screen.queryByTestId('lock-bar')).not.toBeInTheDocument();
    expect(screen.getByTestId('lock-timeline')).toHaveAttribute('data-overlaps', '0');
    expect(screen.queryByTestId('fault-legend')).not.toBeInTheDocument();
  });
});
