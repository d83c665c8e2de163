import type { FaultEvent } from '@oversell/contracts';

/** One injected fault in words, for the timeline's tooltips and the run panel's list. */
export function describeFault(fault: FaultEvent): string {
  const lasted = fault.endedAt === null ? '' : ` for ${(fault.endedAt - fault.startedAt).toFixed(0)} ms`;
  return [
    fault.kind,
    fault.store && `of ${fault.store}`,
    fault.at && `at ${fault.at}`,
    `on ${fault.instance}${lasted}`,
    fault.requestId && `(order ${fault.requestId})`,
    fault.kind === 'crash' && '— the process died here',
    fault.doubleClick &&
      `— ${fault.doubleClick.clicks} clicks, each sent ${fault.doubleClick.copies} times at once ${fault.doubleClick.idempotencyKey ? 'with one idempotency key' : 'without an idempotency key'}`,
  ]
    .filter(Boolean)
    .join(' ');
}
