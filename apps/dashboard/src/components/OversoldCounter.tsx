import type { CSSProperties } from 'react';
import { counterSize } from '../lib/counter-size';
import { formatCount } from '../lib/format';

interface OversoldCounterProps {
  oversold: number;
  /** The run is still going, so the number can still rise. */
  live: boolean;
}

/**
 * The one number the workshop is about: units sold beyond the initial stock. Calm at 0, an unmistakable
 * red alarm above it.
 *
 * The number never wraps: it is `white-space: nowrap`, its font steps down with the digit count, and
 * the size is also capped by the counter's own width (container units, from the number's length), so
 * even 7 digits fit on one line on a phone.
 */
export function OversoldCounter({ oversold, live }: OversoldCounterProps) {
  const alarm = oversold > 0;
  const text = formatCount(oversold);
  const size = counterSize(oversold);
  return (
    <section
      className={`oversold ${alarm ? 'oversold--alarm' : 'oversold--ok'}`}
      data-testid="oversold-counter"
      data-alarm={alarm}
      data-value={oversold}
      aria-label="Oversold units"
    >
      <span
        className={`oversold-value oversold-value--${size}`}
        data-testid="oversold-value"
        data-size={size}
        style={{ '--oversold-chars': text.length } as CSSProperties}
        aria-live="polite"
      >
        {text}
      </span>
      <span className="oversold-label">
        {alarm ? 'units OVERSOLD' : 'units oversold'}
        {alarm ? ' — more sold than there was stock' : live ? ' so far' : ' — stock held'}
      </span>
    </section>
  );
}
