import type { TFunction } from 'i18next';
import type { RunTrace } from '@oversell/contracts';

/** A run trace's title and its one-paragraph reading, in the dashboard's language, filled from the trace's own steps. */
export function traceReading(trace: RunTrace, t: TFunction): { title: string; reading: string } {
  const actors = (ids: Iterable<string>) => [...new Set(ids)].join(', ');
  switch (trace.kind) {
    case 'double-sale': {
      // The orders that sold the unit, not the lock's other holders drawn beside them.
      const orders = actors(trace.steps.filter((s) => s.target === 'stock' && s.action === 'SET' && s.value === trace.stockLeft).map((s) => s.actor));
      return { title: t('sequence.titleDoubleSale'), reading: t('sequence.readingDoubleSale', { orders, stockLeft: trace.stockLeft ?? '' }) };
    }
    case 'deadlock':
      return {
        title: t('sequence.titleDeadlock'),
        reading: t('sequence.readingDeadlock', { holder: trace.orders[0]?.actor ?? '', waiters: actors(trace.orders.slice(1).map((o) => o.actor)) }),
      };
    case 'retry-storm': {
      const order = trace.focus ?? '';
      const failed = trace.steps.filter((s) => s.actor === order && s.action === 'UPDATE' && s.value === 0).length;
      const winners = actors(trace.steps.filter((s) => s.actor !== order && s.target === 'stock' && s.action === 'SET').map((s) => s.actor));
      return { title: t('sequence.titleRetryStorm'), reading: t('sequence.readingRetryStorm', { order, failed, winners }) };
    }
    case 'hot-key': {
      const waiter = trace.focus ?? '';
      const mine = trace.steps.filter((s) => s.actor === waiter && s.target === 'lock');
      const from = mine.find((s) => s.action === 'requested')?.at ?? 0;
      const end = mine.find((s) => s.action === 'granted' || s.action === 'timed out');
      const to = end?.at ?? from;
      const holders = actors(trace.steps.filter((s) => s.actor !== waiter && s.action === 'granted' && (s.at ?? 0) <= to && holdsUntil(trace, s.actor) >= from).map((s) => s.actor));
      const key = end?.action === 'timed out' ? 'sequence.readingHotKeyGaveUp' : 'sequence.readingHotKeyWaited';
      return { title: t('sequence.titleHotKey'), reading: t(key, { waiter, holders, waitMs: Math.round(to - from) }) };
    }
  }
}

/** When an order let the lock go: its release, or never (still holding at the trace's end). */
function holdsUntil(trace: RunTrace, actor: string): number {
  return trace.steps.find((s) => s.actor === actor && s.action === 'released')?.at ?? Infinity;
}
