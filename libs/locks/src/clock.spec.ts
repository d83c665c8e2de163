import { preciseNow } from './clock';

describe('preciseNow', () => {
  it('agrees with Date.now() (allowing for a preempted test), with sub-millisecond resolution', () => {
    for (let i = 0; i < 1000; i++) {
      const before = Date.now();
      const precise = preciseNow();
      const after = Date.now();
      expect(precise).toBeGreaterThanOrEqual(before - 2);
      expect(precise).toBeLessThan(after + 3);
    }
    const a = preciseNow();
    const b = preciseNow();
    expect(b).toBeGreaterThanOrEqual(a);
    expect(Number.isInteger(a) && Number.isInteger(b)).toBe(false);
  });
});
