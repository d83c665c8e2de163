import { useMemo } from 'react';
import type { TFunction } from 'i18next';
import { Trans, useTranslation } from 'react-i18next';
import type { FaultEvent, LockEvent } from '@oversell/contracts';
import { describeFault } from '../lib/fault-text';
import { layoutLockTimeline, type FaultMark, type LockBar } from '../lib/lock-lanes';
import { niceTicks } from '../lib/axis';
import { formatCount, formatTick } from '../lib/format';

const ROW_HEIGHT = 14;
const ROW_GAP = 3;
/** Keeps a sub-millisecond holding visible in a run of several seconds. */
const MIN_BAR_WIDTH_PERCENT = 0.2;

interface LockTimelineProps {
  events: LockEvent[];
  /** The faults injected during the run, each marked on its instance's lane. */
  faults?: FaultEvent[];
  /** Shown when there are no holdings, e.g. because the strategy takes no lock. */
  emptyText: string;
}

function describe(bar: LockBar, t: TFunction): string {
  const { event } = bar;
  const held = (event.releasedAt - event.acquiredAt).toFixed(1);
  const waited = (event.acquiredAt - event.requestedAt).toFixed(1);
  return [
    t('lockTimeline.bar', { key: event.lockKey, requestId: event.requestId, instance: event.instance, held, waited }),
    bar.overlapping ? t('lockTimeline.barOverlaps') : '',
    event.expired ? t('lockTimeline.barExpired') : '',
  ]
    .filter(Boolean)
    .join(' — ');
}

/** A fault's mark on a lane `height` px tall, at positions given in % of the axis. */
function FaultMarkShape({ mark, at, height }: { mark: FaultMark; at: (ms: number) => number; height: number }) {
  const { t } = useTranslation();
  const common = { 'data-testid': 'fault-mark', 'data-kind': mark.fault.kind, 'data-shape': mark.shape };
  const title = <title>{describeFault(mark.fault, t)}</title>;
  if (mark.shape === 'span') {
    return (
      <rect {...common} className={`fault-span fault-span--${mark.fault.kind}`} x={`${at(mark.from)}%`} width={`${Math.max(at(mark.to) - at(mark.from), MIN_BAR_WIDTH_PERCENT)}%`} y={0} height={height}>
        {title}
      </rect>
    );
  }
  return (
    <text {...common} className={`fault-glyph fault-glyph--${mark.shape}`} x={`${at(mark.from)}%`} y={Math.min(height, ROW_HEIGHT) - 2} textAnchor="middle">
      {mark.shape === 'cross' ? '✕' : '⏱'}
      {title}
    </text>
  );
}

/**
 * A gantt of lock holdings: one lane per instance, one bar per holding. Red bars are holdings of a key
 * that someone else held at the same time; bars with a dashed outline outlived their lease. Injected
 * faults are marked on their instance's lane: a cross where a process died, a shaded span for a pause,
 * a stop-the-world or a store cut, a clock for a shifted clock.
 *
 * Plain SVG rather than recharts: thousands of independent intervals per lane is a gantt, which
 * recharts' category-based bars cannot lay out without one data row per bar.
 */
export function LockTimeline({ events, faults = [], emptyText }: LockTimelineProps) {
  const { t } = useTranslation();
  const layout = useMemo(() => layoutLockTimeline(events, faults), [events, faults]);
  const span = Math.max(layout.end - layout.start, 1);
  const at = (ms: number) => ((ms - layout.start) / span) * 100;
  // Round milliseconds (0, 1,000, 2,000 …) that fall inside the drawn span.
  const ticks = niceTicks(span).filter((ms) => ms <= span);

  return (
    <figure
      className="chart lock-timeline"
      data-testid="lock-timeline"
      data-holdings={layout.total}
      data-overlaps={layout.overlappingCount}
      data-expired={layout.expiredCount}
      data-faults={layout.faultCount}
    >
      <figcaption>
        <span className="chart-title">{t('lockTimeline.title')}</span>
        <span className="chart-hint">
          <Trans i18nKey="lockTimeline.hint" components={{ overlap: <span className="key key--overlap" />, expired: <span className="key key--expired" /> }} />
          {layout.faultCount > 0 && (
            <span data-testid="fault-legend">
              <Trans
                i18nKey="lockTimeline.faultHint"
                components={{ crash: <span className="key key--crash" />, span: <span className="key key--span" />, clock: <span className="key" /> }}
              />
            </span>
          )}
        </span>
      </figcaption>
      {layout.total === 0 && layout.faultCount === 0 ? (
        <p className="empty">{emptyText}</p>
      ) : (
        <>
          <p className="lock-summary">
            {t('lockTimeline.holdings', { count: layout.total, n: formatCount(layout.total) })}
            {layout.drawn < layout.total && t('lockTimeline.showingLatest', { n: formatCount(layout.drawn) })} ·{' '}
            <strong
              className={layout.overlappingCount > 0 ? 'alarm-text' : undefined}
              data-testid="lock-overlap-count"
              data-value={layout.overlappingCount}
            >
              {t('lockTimeline.overlapping', { n: formatCount(layout.overlappingCount) })}
            </strong>{' '}
            · <span data-testid="lock-expired-count">{t('lockTimeline.expired', { n: formatCount(layout.expiredCount) })}</span>
          </p>
          <div className="lanes">
            {layout.lanes.map((lane) => {
              // A lane with faults and no holdings still gets one row to draw them on.
              const height = Math.max(lane.rows, 1) * (ROW_HEIGHT + ROW_GAP);
              return (
                <div className="lane" key={lane.instance}>
                  <span className="lane-name">{lane.instance}</span>
                  <svg
                    className="lane-bars"
                    width="100%"
                    height={height}
                    role="img"
                    aria-label={`${t('lockTimeline.lane', { instance: lane.instance, count: lane.bars.length, n: lane.bars.length, overlapping: lane.bars.filter((b) => b.overlapping).length })}${lane.marks.length ? t('lockTimeline.laneFaults', { count: lane.marks.length, n: lane.marks.length }) : ''}`}
                  >
                    {lane.marks
                      .filter((mark) => mark.shape === 'span')
                      .map((mark, index) => (
                        <FaultMarkShape key={`${mark.fault.kind}@${mark.from}#${index}`} mark={mark} at={at} height={height} />
                      ))}
                    {lane.bars.map((bar) => (
                      <rect
                        key={`${bar.event.requestId}:${bar.event.lockKey}@${bar.event.acquiredAt}`}
                        data-testid="lock-bar"
                        data-overlap={bar.overlapping}
                        data-expired={bar.event.expired}
                        className={`lock-bar${bar.overlapping ? ' lock-bar--overlap' : ''}${bar.event.expired ? ' lock-bar--expired' : ''}`}
                        x={`${at(bar.event.acquiredAt)}%`}
                        width={`${Math.max(at(bar.event.releasedAt) - at(bar.event.acquiredAt), MIN_BAR_WIDTH_PERCENT)}%`}
                        y={bar.row * (ROW_HEIGHT + ROW_GAP)}
                        height={ROW_HEIGHT}
                      >
                        <title>{describe(bar, t)}</title>
                      </rect>
                    ))}
                    {/* Crosses and notes over the bars, spans under them. */}
                    {lane.marks
                      .filter((mark) => mark.shape !== 'span')
                      .map((mark, index) => (
                        <FaultMarkShape key={`${mark.fault.kind}@${mark.from}#${index}`} mark={mark} at={at} height={height} />
                      ))}
                  </svg>
                </div>
              );
            })}
            <div className="lane lane--axis" aria-hidden="true">
              <span className="lane-name">ms</span>
              <div className="axis">
                {ticks.map((ms) => {
                  const left = (ms / span) * 100;
                  // Labels near the right end stay inside the lane instead of hanging over its edge.
                  const edge = ms === 0 ? ' tick--start' : left > 92 ? ' tick--end' : '';
                  return (
                    <span key={ms} className={`tick${edge}`} style={{ left: `${left}%` }}>
                      {formatTick(ms)}
                    </span>
                  );
                })}
              </div>
            </div>
          </div>
        </>
      )}
    </figure>
  );
}
