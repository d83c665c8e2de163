import type { ContendedPhase, RequestIds } from '@oversell/contracts';

const integer = new Intl.NumberFormat('en-US', { maximumFractionDigits: 0 });
const decimal = new Intl.NumberFormat('en-US', { maximumFractionDigits: 1 });

export function formatCount(value: number | undefined): string {
  return value === undefined ? '—' : integer.format(value);
}

/** "2 requests, 3 units: a1, b2, …": request ids found in one state, the first few named. */
export function formatRequestIds(ids: RequestIds): string {
  if (ids.count === 0) return '0';
  const more = ids.count > ids.first.length ? ', …' : '';
  return `${integer.format(ids.count)} request${ids.count === 1 ? '' : 's'}, ${integer.format(ids.units)} unit${ids.units === 1 ? '' : 's'}: ${ids.first.join(', ')}${more}`;
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
export function formatContendedPhase(phase: ContendedPhase | undefined): string {
  if (!phase) return '—';
  const rate = `${perSecond(phase.unitsPerSec)} units/s`;
  return phase.soldOut ? `sold out in ${decimal.format(phase.durationMs / 1000)} s, ${rate}` : `never sold out, ${rate}`;
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
