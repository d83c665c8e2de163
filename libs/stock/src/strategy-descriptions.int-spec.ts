import { useStockTestApp } from './testing';

const lab = useStockTestApp();

describe('the strategy descriptions the API serves', () => {
  // The k6 scripts judge from `lease` whether a run's business delay can make a strategy oversell; the run form shows the TTL from `settings`.
  it('give a strategy a lease exactly when it reads the lock TTL, and only a lock renews one', () => {
    const descriptions = lab.app.registry.describeAll();
    expect(descriptions.map((d) => [d.name, d.lease !== 'none'])).toEqual(descriptions.map((d) => [d.name, d.settings.includes('lockTtlMs')]));
    expect(descriptions.filter((d) => d.lease === 'renewed').every((d) => d.kind === 'lock')).toBe(true);
  });
});
