import { render, screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { point } from '../test/fixtures';
import { StockChart } from './StockChart';

describe('StockChart', () => {
  const timeline = [0, 1, 2, 3, 4].map((t) => point(t, { soldTotal: 10 * (t + 1), remaining: 40 }));

  it('shades the drain after the load and marks the store as read again at the end', () => {
    const { container } = render(<StockChart timeline={timeline} initialStock={50} drain={{ loadEndSec: 2, finalRemaining: 0 }} />);
    expect(screen.getByTestId('stock-chart')).toHaveTextContent('the store is not read then, only once more at the end');
    expect(container.querySelectorAll('.recharts-reference-area')).toHaveLength(2);
    expect(screen.getByText('draining')).toBeInTheDocument();
    expect(screen.getByText('remaining, read at the end')).toBeInTheDocument();
  });

  it('draws no drain while the run goes', () => {
    render(<StockChart timeline={timeline} initialStock={50} />);
    expect(screen.queryByText('draining')).toBeNull();
    expect(screen.getByTestId('stock-chart')).toHaveTextContent('units sold above the dashed line were never in stock');
  });
});
