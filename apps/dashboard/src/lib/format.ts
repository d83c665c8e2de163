import type { ContendedPhase, RequestIds } from '@oversell/contracts';
import type { TFunction } from 'i18next';

const integer = new Intl.NumberFormat('en-US', { maximumFractionDigits: 0 });
const decimal = new Intl.NumberFormat('en-US', { maximumFractionDigits: 1 });

export function formatCount(value: number | undefined): string {
  return value === undefined ? '—' : integer.format(value);
}

/** "2 requests, 3 units: a1, b2, …": request ids found in one state, the first few named. */
export function formatRequestIds(ids: RequestIds, t: TFunction): string {
  if (ids.count === 0) return '0';
  const more = ids.count > ids.first.length ? ', …' : '';
  return t('format.requestIds', {
    requests: t('format.requests', { count: ids.count, n: integer.format(ids.count) }),
    units: t('format.units', { count: ids.units, n: integer.format(ids.units) }),
    ids: `${ids.first.join(', ')}${more}`,
  });
}

/** A per-second figure: whole above 10, one decimal below, where rounding would misstate it (3.5 is not 4). */
function perSecond(value: number): string {
  return (value < 10 ? decimal : integer).format(value);
}

/** Requests per second. */
export function formatRate(value: number | undefined): string {
  return value === undefined ? '—' : `${perSecond(value)}/s`;
}

export function formatMs(value: number | undefined): string {
  return value === undefined ? '—' : `${decimal.format(value)} ms`;
}

/** "sold out in 2 s, 480 units/s" or "never sold out, 120 units/s": the contended phase in a table cell. */
export function formatContendedPhase(phase: ContendedPhase | undefined, t: TFunction): string {
  if (!phase) return '—';
  const rate = perSecond(phase.unitsPerSec);
  return phase.soldOut ? t('format.soldOutIn', { seconds: decimal.format(phase.durationMs / 1000), rate }) : t('format.neverSoldOut', { rate });
}

export function formatTime(iso: string | null): string {
  return iso ? new Date(iso).toLocaleString() : '—';
}

/** Axis tick labels: thousands separated, like every other figure on the page. */
export function formatTick(value: number): string {
  return integer.format(value);
}

/** Latency axis tick labels. */
export function formatMsTick(value: number): string {
  return `${integer.format(value)} ms`;
}
