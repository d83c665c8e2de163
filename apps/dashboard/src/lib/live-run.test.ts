import { describe, expect, it } from 'vitest';
import { faultEvent, lockEvent, outcomeCounts, point, run } from '../test/fixtures';
import { applyRunEvent, EMPTY_LIVE_RUN, isStreamDone, MAX_LIVE_LOCK_EVENTS } from './live-run';

const counts = outcomeCounts({ attempts: 10, sold: 5, sold_out: 5 });

describe('applyRunEvent', () => {
  it('accumulates progress: timeline, counts and the current oversold figure', () => {
    let state = applyRunEvent(EMPTY_LIVE_RUN, { type: 'status', runId: 'r', status: 'running' });
    state = applyRunEvent(state, { type: 'progress', runId: 'r', point: point(0), counts, oversold: 0 });
    state = applyRunEvent(state, { type: 'progress', runId: 'r', point: point(1), counts, oversold: 3 });
    expect(state.status).toBe('running');
    expect(state.timeline.map((p) => p.t)).toEqual([0, 1]);
    expect(state.oversold).toBe(3);
    expect(isStreamDone(state)).toBe(false);
  });

  it('keeps only the latest lock events', () => {
    const batch = Array.from({ length: MAX_LIVE_LOCK_EVENTS }, (_, i) => lockEvent({ requestId: `a${i}` }));
    let state = applyRunEvent(EMPTY_LIVE_RUN, { type: 'lock', runId: 'r', events: batch });
    state = applyRunEvent(state, { type: 'lock', runId: 'r', events: [lockEvent({ requestId: 'newest' })] });
    expect(state.lockEvents).toHaveLength(MAX_LIVE_LOCK_EVENTS);
    expect(state.lockEvents.at(-1)?.requestId).toBe('newest');
    expect(state.lockEvents[0].requestId).toBe('a1');
  });

  it('collects the injected faults in the order they fired', () => {
    let state = applyRunEvent(EMPTY_LIVE_RUN, { type: 'fault', runId: 'r', events: [faultEvent({ kind: 'crash', endedAt: null })] });
    state = applyRunEvent(state, { type: 'fault', runId: 'r', events: [faultEvent({ kind: 'store-cut', startedAt: 2000, endedAt: 2600 })] });
    expect(state.faults.map((f) => f.kind)).toEqual(['crash', 'store-cut']);
    expect(state.lockEvents).toEqual([]);
  });

  it('is done on the result or on failure', () => {
    const finished = applyRunEvent(EMPTY_LIVE_RUN, { type: 'result', runId: 'r', run: run() });
    expect(finished.status).toBe('completed');
    expect(isStreamDone(finished)).toBe(true);
    const failed = applyRunEvent(EMPTY_LIVE_RUN, { type: 'status', runId: 'r', status: 'failed', failure: 'redis down' });
    expect(failed.failure).toBe('redis down');
    expect(isStreamDone(failed)).toBe(true);
  });
});
