import { describe, expect, it } from 'vitest';
import type { RunTrace, SequenceStep } from '@oversell/contracts';
import { createI18n } from '../i18n/i18n';
import { t } from '../test/i18n';
import { traceReading } from './trace-reading';

const step = (actor: string, at: number, target: string, action: string, value?: number | string, note?: string): SequenceStep => ({ actor, at, target, action, ...(value === undefined ? {} : { value }), ...(note ? { note } : {}) });
const orders = (...actors: string[]) => actors.map((actor) => ({ actor, requestId: actor.toLowerCase(), instance: 'os-1' }));

describe('traceReading', () => {
  const storm: RunTrace = {
    kind: 'retry-storm',
    focus: 'A',
    orders: orders('A', 'B', 'C'),
    steps: [step('A', 0, 'stock', 'GET', 5), step('B', 1, 'stock', 'SET', 4), step('A', 2, 'stock', 'UPDATE', 0, 'version:0'), step('A', 3, 'stock', 'GET', 4), step('C', 4, 'stock', 'SET', 3), step('A', 5, 'stock', 'UPDATE', 0, 'version:1')],
  };
  const line: RunTrace = {
    kind: 'hot-key',
    focus: 'C',
    orders: orders('A', 'B', 'C'),
    steps: [step('A', 0, 'lock', 'granted', 3000), step('B', 1, 'lock', 'requested'), step('C', 10, 'lock', 'requested'), step('A', 500, 'lock', 'released', 'true'), step('B', 500, 'lock', 'granted', 3000), step('B', 1000, 'lock', 'released', 'true'), step('C', 1010, 'lock', 'timed out', 1000)],
  };

  it('reads a retry storm: the stormed order, its failed checks, and the orders whose sales beat it', () => {
    expect(traceReading(storm, t)).toEqual({ title: 'The retry storm, step by step', reading: expect.stringContaining('Order A read the stock') });
    expect(traceReading(storm, t).reading).toContain('0 rows, 2 times: each time another order (B, C) had sold');
  });

  it('reads a hot key: the waiter, how long it waited, the holders meanwhile, and whether it gave up', () => {
    expect(traceReading(line, t)).toEqual({ title: 'The line behind the hot key, step by step', reading: expect.stringContaining('Order C asked for it and waited 1000 ms while A, B held it') });
    expect(traceReading(line, t).reading).toContain('then gave up');
    const granted = { ...line, steps: [...line.steps.slice(0, -1), step('C', 1010, 'lock', 'granted', 3000)] };
    expect(traceReading(granted, t).reading).toContain('the run ended with stock unsold');
  });

  it('reads each kind in Chinese too, with the same figures', () => {
    const zh = createI18n({ language: 'zh-CN' }).t;
    expect(traceReading(storm, zh)).toEqual({ title: '重试风暴：逐步还原', reading: expect.stringContaining('一共 2 次') });
    expect(traceReading(line, zh).reading).toContain('订单 C 请求加锁后等了 1000 ms，其间 A, B 一个接一个地持有它');
  });
});
