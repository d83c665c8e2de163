import { render } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { axisWidth } from '../lib/axis';
import { ThroughputChart } from './ThroughputChart';

describe('ThroughputChart', () => {
  it('labels both axes with round, separated figures and makes them wide enough for them', () => {
    const rows = [0, 1, 2].map((t) => ({ t, soldTotal: 0, remaining: 0, requestsPerSec: 4000 * (t + 1) + 345, p99: 480 * (t + 1) }));
    const { container } = render(<ThroughputChart rows={rows} />);
    const labels = [...container.querySelectorAll('.recharts-cartesian-axis-tick-value')].map((t) => t.textContent);
    expect(labels).toEqual(expect.arrayContaining(['12,500', '1,500 ms', '0 ms']));
    // The widest label decides each axis's width: the old fixed 64 px cut "500 ms" to "00 ms".
    expect(axisWidth(['1,500 ms'])).toBeGreaterThan(64);
  });
});
