import { LocalQueues } from './local-queues';

/** A promise with its resolve exposed, to hold a turn open for as long as the test wants. */
function gate() {
  let open!: () => void;
  const opened = new Promise<void>((resolve) => (open = resolve));
  return { opened, open };
}

describe('LocalQueues', () => {
  it('runs the callers of one key one at a time, in arrival order', async () => {
    const queues = new LocalQueues();
    const order: string[] = [];
    const first = gate();
    const a = queues.run('k', 1000, async () => {
      order.push('a start');
      await first.opened;
      order.push('a end');
    });
    const b = queues.run('k', 1000, async () => void order.push('b'));
    const c = queues.run('k', 1000, async () => void order.push('c'));
    expect(queues.length('k')).toBe(3);
    first.open();
    await Promise.all([a, b, c]);
    expect(order).toEqual(['a start', 'a end', 'b', 'c']);
    expect(queues.length('k')).toBe(0);
  });

  it('lets different keys run at the same time', async () => {
    const queues = new LocalQueues();
    const held = gate();
    const a = queues.run('x', 1000, () => held.opened);
    const b = await queues.run('y', 1000, async () => 'y ran');
    expect(b).toBe('y ran');
    held.open();
    await a;
  });

  it('gives up after the wait and lets the ones behind go on as soon as the line moves', async () => {
    const queues = new LocalQueues();
    const held = gate();
    const a = queues.run('k', 1000, () => held.opened);
    const impatient = queues.run('k', 20, async () => 'never');
    const patient = queues.run('k', 1000, async () => 'patient ran');
    expect(await impatient).toBeNull();
    held.open();
    expect(await patient).toBe('patient ran');
    await a;
    expect(queues.length('k')).toBe(0);
  });
});
