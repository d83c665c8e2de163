/**
 * Font-size steps of the big oversold number, by its digit count (styles.css sizes each step): the
 * more digits, the smaller the step, so the number stays on one line.
 */
export type CounterSize = 'xl' | 'l' | 'm' | 's';

export function counterSize(value: number): CounterSize {
  const digits = String(Math.trunc(Math.abs(value))).length;
  if (digits <= 3) return 'xl';
  if (digits === 4) return 'l';
  if (digits <= 6) return 'm';
  return 's';
}
