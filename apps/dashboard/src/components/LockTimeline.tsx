import { useMemo } from 'react';
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

/** A fault's mark on a lane `height` px tall, at positions given in % of the axis. */
function FaultMarkShape({ mark, at, height }: { mark: FaultMark; at: (ms: number) => number; height: number }) {
  const common = { 'data-testid': 'fault-mark', 'data-kind': mark.fault.kind, 'data-shape': mark.shape };
  const title = <title>{describeFault(mark.fault)}</title>;
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
        <span className="chart-title">Lock timeline</span>
        <span className="chart-hint">
          one lane per instance, one bar per holding; <span className="key key--overlap">red</span> = two holders of
          the same key at once, <span className="key key--expired">dashed outline</span> = lease expired
          {layout.faultCount > 0 && (
            <span data-testid="fault-legend">
              ; faults: <span className="key key--crash">✕</span> crash, <span className="key key--span">shaded</span> pause /
              stop-the-world / store cut, <span className="key">⏱</span> clock offset or double click
            </span>
          )}
        </span>
      </figcaption>
      {layout.total === 0 && layout.faultCount === 0 ? (
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
                    aria-label={`${lane.instance}: ${lane.bars.length} holdings, ${lane.bars.filter((b) => b.overlapping).length} overlapping${lane.marks.length ? `, ${lane.marks.length} faults` : ''}`}
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
                        <title>{describe(bar)}</title>
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
