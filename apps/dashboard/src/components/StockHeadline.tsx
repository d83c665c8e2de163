import type { CSSProperties } from 'react';
import { useTranslation } from 'react-i18next';
import { stockOutcome, unitsSoldTwice, type StockFigures } from '@oversell/contracts';
import { counterSize } from '../lib/counter-size';
import { formatCount } from '../lib/format';

export interface StockHeadlineProps {
  figures: StockFigures;
  initialStock: number;
  /** Units sold so far (MySQL's orders once finished). */
  sold: number;
  /** What the store says is left. */
  remaining: number;
  /** The run is still going: the count is a lower bound that can still rise. */
  live: boolean;
}

/**
 * The one number the workshop is about: units sold twice, whether or not the stock ran out. Red above 0
 * ("43 units sold twice — 66 sold, yet 77 of 100 still in stock"), green only when nothing was; units a
 * crash stranded with no order, and a store that lost its keys, in their own colour and words.
 *
 * The number never wraps: it is `white-space: nowrap`, its font steps down with the digit count, and
 * the size is also capped by the headline's own width (container units, from the number's length), so
 * even 7 digits fit on one line on a phone.
 */
export function StockHeadline({ figures, initialStock, sold, remaining, live }: StockHeadlineProps) {
  const { t } = useTranslation();
  const soldTwice = unitsSoldTwice(figures);
  const outcome = stockOutcome(figures);
  const text = formatCount(soldTwice);
  const size = counterSize(soldTwice);
  const values = { sold: formatCount(sold), remaining: formatCount(Math.max(0, remaining)), initial: formatCount(initialStock), oversold: formatCount(figures.oversold) };
  const what =
    soldTwice === 0
      ? t(live ? 'headline.heldLive' : 'headline.held')
      : figures.oversold > 0
        ? t('headline.beyondStock', values)
        : t('headline.stockLeft', values);
  return (
    <section
      className={`stock-headline stock-headline--${outcome}`}
      data-testid="stock-headline"
      data-outcome={outcome}
      data-value={soldTwice}
      data-oversold={figures.oversold}
      aria-label={t('headline.label')}
    >
      <span
        className={`stock-headline-value stock-headline-value--${size}`}
        data-testid="stock-headline-value"
        data-size={size}
        style={{ '--headline-chars': text.length } as CSSProperties}
        aria-live="polite"
      >
        {text}
      </span>{' '}
      <span className="stock-headline-label">{t(live ? 'headline.soldTwiceSoFar' : 'headline.soldTwice', { count: soldTwice })}</span>{' '}
      <span className="stock-headline-what" data-testid="stock-headline-what">
        {what}
      </span>
      {(figures.lost ?? 0) > 0 && !figures.storeLost && (
        <span className="stock-headline-aside stock-headline-aside--stranded" data-testid="stock-headline-stranded">
          {t('headline.lost', { count: figures.lost })}
        </span>
      )}
      {figures.storeLost && (
        <span className="stock-headline-aside stock-headline-aside--store-lost" data-testid="stock-headline-store-lost">
          {t('headline.storeLost')}
        </span>
      )}
    </section>
  );
}
