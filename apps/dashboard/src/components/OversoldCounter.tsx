interface OversoldCounterProps {
  oversold: number;
  /** The run is still going, so the number can still rise. */
  live: boolean;
}

/**
 * The one number the workshop is about: units sold beyond the initial stock. Calm at 0, an unmistakable
 * red alarm above it.
 */
export function OversoldCounter({ oversold, live }: OversoldCounterProps) {
  const alarm = oversold > 0;
  return (
    <section
      className={`oversold ${alarm ? 'oversold--alarm' : 'oversold--ok'}`}
      data-testid="oversold-counter"
      data-alarm={alarm}
      data-value={oversold}
      aria-label="Oversold units"
    >
      <span className="oversold-value" aria-live="polite">
        {oversold}
      </span>
      <span className="oversold-label">
        {alarm ? 'units OVERSOLD' : 'units oversold'}
        {alarm ? ' — more sold than there was stock' : live ? ' so far' : ' — stock held'}
      </span>
    </section>
  );
}
