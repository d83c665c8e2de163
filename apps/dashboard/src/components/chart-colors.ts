/** Chart colours (SVG attributes cannot rely on CSS variables everywhere); styles.css uses the same values. */
export const CHART_COLORS = {
  ink: '#1f2933',
  alarm: '#c81e1e',
  alarmSoft: '#fde2e2',
  sold: '#c2410c',
  remaining: '#1d4ed8',
  rate: '#60a5fa',
  latency: '#7c3aed',
  ok: '#15803d',
  ceiling: '#9ca3af',
  lock: '#2563eb',
} as const;
