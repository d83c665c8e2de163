import { render, screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { OrderQueueChart } from './OrderQueueChart';

const figures = {
  backlog: [
    { t: 0, depth: 0, lagMs: 0 },
    { t: 1, depth: 1200, lagMs: 850 },
    { t: 2, depth: 300, lagMs: 1500 },
    { t: 3, depth: 0, lagMs: 0 },
  ],
  peakDepth: 1200,
  peakLagMs: 1500,
  drainMs: 900,
  stillQueued: 0,
  failed: 0,
};

describe('OrderQueueChart', () => {
  it('scales its axes to the peak depth and the peak lag of the run', () => {
    const { container } = render(<OrderQueueChart orderWrite={figures} />);
    const labels = [...container.querySelectorAll('.recharts-cartesian-axis-tick-value')].map((t) => t.textContent);
    // Round ticks reaching past each peak: 1,200 orders under 1,250, 1,500 ms at the top of the right axis.
    expect(labels).toEqual(expect.arrayContaining(['1,250', '1,500 ms']));
    expect(screen.getByText(/drained before the books were read/)).toBeTruthy();
  });

  it('says how many orders were still queued when the reconciliation stopped waiting', () => {
    render(<OrderQueueChart orderWrite={{ ...figures, stillQueued: 42 }} />);
    expect(screen.getByText('42 orders were still queued when the reconciliation stopped waiting')).toBeTruthy();
  });

  it('names the orders whose jobs failed for good, which the books count as still queued', () => {
    render(<OrderQueueChart orderWrite={{ ...figures, failed: 3 }} />);
    expect(screen.getByText("3 orders' jobs failed for good (never written)")).toBeTruthy();
    expect(screen.queryByText(/drained before the books were read/)).toBeNull();
  });
});
