import { useStockTestApp } from './testing';

const lab = useStockTestApp();

describe('the strategy descriptions the API serves', () => {
  // The k6 scripts judge from `lease` whether a run's business delay can make a strategy oversell; the run form shows the TTL from `settings`.
  it('give a strategy a lease whenever it reads the lock TTL, a fixed lease only with that TTL, and only a lock renews one', () => {
    const descriptions = lab.app.registry.describeAll();
    const named = (pick: (d: (typeof descriptions)[number]) => boolean) => descriptions.filter(pick).map((d) => d.name);
    // A fixed lease runs out after the TTL the run sets, which is what the k6 scripts compare with the business delay.
    expect(named((d) => d.lease === 'fixed' && !d.settings.includes('lockTtlMs'))).toEqual([]);
    expect(named((d) => d.settings.includes('lockTtlMs') && d.lease === 'none')).toEqual([]);
    // A renewed lease need not read it: zookeeper's is its session, kept alive by the client's heartbeats.
    expect(named((d) => d.lease === 'renewed' && d.kind !== 'lock')).toEqual([]);
    expect(named((d) => d.lease === 'renewed')).toEqual(expect.arrayContaining(['watchdog', 'etcd', 'zookeeper']));
  });
});
