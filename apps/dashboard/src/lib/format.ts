const integer = new Intl.NumberFormat('en-US', { maximumFractionDigits: 0 });
const decimal = new Intl.NumberFormat('en-US', { maximumFractionDigits: 1 });

export function formatCount(value: number | undefined): string {
  return value === undefined ? '—' : integer.format(value);
}

/** Requests per second. */
export function formatRate(value: number | undefined): string {
  return value === undefined ? '—' : `${integer.format(value)}/s`;
}

export function formatMs(value: number | undefined): string {
  return value === undefined ? '—' : `${decimal.format(value)} ms`;
}

export function formatTime(iso: string | null): string {
  return iso ? new Date(iso).toLocaleString() : '—';
}
