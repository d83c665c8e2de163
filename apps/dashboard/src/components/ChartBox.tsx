import type { ReactElement } from 'react';
import { ResponsiveContainer } from 'recharts';

interface ChartBoxProps {
  title: string;
  height?: number;
  /** Shown under the title: what to look for in this chart. */
  hint?: string;
  testId?: string;
  children: ReactElement;
}

/**
 * A titled chart that takes its container's width. The initial size is what the chart renders with
 * before the first measurement (and in tests, where nothing is laid out).
 */
export function ChartBox({ title, height = 240, hint, testId, children }: ChartBoxProps) {
  return (
    <figure className="chart" data-testid={testId}>
      <figcaption>
        <span className="chart-title">{title}</span>
        {hint && <span className="chart-hint">{hint}</span>}
      </figcaption>
      <ResponsiveContainer width="100%" height={height} initialDimension={{ width: 480, height }}>
        {children}
      </ResponsiveContainer>
    </figure>
  );
}
