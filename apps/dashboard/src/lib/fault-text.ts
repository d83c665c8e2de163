import type { TFunction } from 'i18next';
import type { FaultEvent } from '@oversell/contracts';

/** One injected fault in words, for the timeline's tooltips and the run panel's list. */
export function describeFault(fault: FaultEvent, t: TFunction): string {
  const click = fault.doubleClick;
  return [
    fault.kind,
    fault.store && t('faultText.store', { store: fault.store }),
    fault.at && t('faultText.at', { at: fault.at }),
    fault.endedAt === null ? t('faultText.on', { instance: fault.instance }) : t('faultText.onFor', { instance: fault.instance, ms: (fault.endedAt - fault.startedAt).toFixed(0) }),
    fault.requestId && t('faultText.order', { id: fault.requestId }),
    fault.kind === 'crash' && t('faultText.crash'),
    click && t(click.idempotencyKey ? 'faultText.withKey' : 'faultText.withoutKey', { count: click.clicks, copies: click.copies }),
  ]
    .filter(Boolean)
    .join(' ');
}
