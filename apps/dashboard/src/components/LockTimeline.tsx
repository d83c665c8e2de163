import { useMemo } from 'react';
import type { LockEvent } from '@oversell/contracts';
import { layoutLockTimeline, type LockBar } from '../lib/lock-lanes';
import { niceTicks } from '../lib/axis';
import { formatCount, formatTick } from '../lib/format';

const ROW_HEIGHT = 14;
const ROW_GAP = 3;
/** Keeps a sub-millisecond holding visible in a run of several seconds. */
const MIN_BAR_WIDTH_PERCENT = 0.2;

interface LockTimelineProps {
  events: LockEvent[];
  /** Shown when there are no holdings, e.g. because the strategy takes no lock. */
  emptyText: string;
}

function describe(bar: LockBar): string {
  const { event } = bar;
  const held = (event.releasedAt - event.acquiredAt).toFixed(1);
  const waited = (event.acquiredAt - event.requestedAt).toFixed(1);
  return [
    `${event.lockKey} held by ${event.requestId} on ${event.instance} for ${held} ms (waited ${waited} ms)`,
    bar.overlapping ? 'OVERLAPS another holder of the same key' : '',
    event.expired ? 'lease expired before release' : '',
  ]
    .filter(Boolean)
    .join(' — ');
}

/**
 * A gantt of lock holdings: one lane per instance, one bar per holding. Red bars are holdings of a key
 * that someone else held at the same time; bars with a dashed outline outlived their lease.
 *
 * Plain SVG rather than recharts: thousands of independent intervals per lane is a gantt, which
 * recharts' category-based bars cannot lay out without one data row per bar.
 */
export function LockTimeline({ events, emptyText }: LockTimelineProps) {
  const layout = useMemo(() => layoutLockTimeline(events), [events]);
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
    >
      <figcaption>
        <span className="chart-title">Lock timeline</span>
        <span className="chart-hint">
          one lane per instance, one bar per holding; <span className="key key--overlap">red</span> = two holders of
          the same key at once, <span className="key key--expired">dashed outline</span> = lease expired
        </span>
      </figcaption>
      {layout.total === 0 ? (
        <p className="empty">{emptyText}</p>
      ) : (
        <>
          <p className="lock-summary">
            {formatCount(layout.total)} holdings
            {layout.drawn < layout.total && ` (showing the latest ${formatCount(layout.drawn)})`} ·{' '}
            <strong
              className={layout.overlappingCount > 0 ? 'alarm-text' : undefined}
              data-testid="lock-overlap-count"
              data-value={layout.overlappingCount}
            >
              {formatCount(layout.overlappingCount)} overlapping
            </strong>{' '}
            · <span data-testid="lock-expired-count">{formatCount(layout.expiredCount)} expired</span>
          </p>
          <div className="lanes">
            {layout.lanes.map((lane) => (
              <div className="lane" key={lane.instance}>
                <span className="lane-name">{lane.instance}</span>
                <svg
                  className="lane-bars"
                  width="100%"
                  height={lane.rows * (ROW_HEIGHT + ROW_GAP)}
                  role="img"
                  aria-label={`${lane.instance}: ${lane.bars.length} holdings, ${lane.bars.filter((b) => b.overlapping).length} overlapping`}
                >
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
                      <title>{describe(bar)}</title>
                    </rect>
                  ))}
                </svg>
              </div>
            ))}
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
