import { describe, expect, it } from 'vitest';
import type { RunParams } from '@oversell/contracts';
import { run } from '../test/fixtures';
import { startInOrder } from './start-in-order';

const params = (strategy: RunParams['strategy']): RunParams => ({ ...run().params, strategy });
const queueFull = new Error('the run queue is full');

describe('startInOrder', () => {
  it('queues every run in order', async () => {
    const started = await startInOrder([params('uuid-lua'), params('watchdog')], async (p) => run({ id: p.strategy }));
    expect(started).toEqual({ runs: [run({ id: 'uuid-lua' }), run({ id: 'watchdog' })] });
  });

  it('keeps the runs already queued when a later one is refused, says which, and sends nothing after it', async () => {
    const sent: string[] = [];
    const started = await startInOrder([params('uuid-lua'), params('watchdog'), params('lua-decrement')], async (p) => {
      sent.push(p.strategy);
      if (p.strategy === 'watchdog') throw queueFull;
      return run({ id: p.strategy });
    });
    expect(started).toEqual({ runs: [run({ id: 'uuid-lua' })], refused: { index: 1, error: queueFull } });
    expect(sent).toEqual(['uuid-lua', 'watchdog']);
  });

  it('throws the refusal of the first run: nothing was queued', async () => {
    await expect(startInOrder([params('uuid-lua')], () => Promise.reject(queueFull))).rejects.toBe(queueFull);
  });
});
