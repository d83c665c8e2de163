import * as hdr from 'hdr-histogram-js';
import type { LatencySummary } from '@oversell/contracts';

/** Latencies are recorded in microseconds, 1 µs to 5 min, 3 significant digits (HdrHistogram). */
const LATENCY_RANGE = { lowestDiscernibleValue: 1, highestTrackableValue: 300_000_000, numberOfSignificantValueDigits: 3 } as const;

/**
 * A histogram kept for a run's whole length (the reader's one per second of the run): packed counts
 * keep one a few KB instead of 81 KB.
 */
export function newLatencyHistogram(): hdr.Histogram {
  return hdr.build({ ...LATENCY_RANGE, bitBucketSize: 'packed' });
}

/**
 * A histogram that lives a few seconds: the one an instance records every answer of a second into (and
 * encodes at each flush), or one merged to be summarised at once (a second's for the live progress, a
 * run's or its contended phase's for its result). Plain 32-bit counts, 81 KB each, are several times
 * faster to record into, merge and read than packed ones: recording and encoding a packed one cost
 * about 6 µs an answer (docs/performance.md). While the control Redis cannot be reached, an instance
 * keeps each second it could not send: at most one a second of a run's load (600 s, 49 MB), given back
 * at the first flush that lands.
 */
export function newShortLivedHistogram(): hdr.Histogram {
  return hdr.build({ ...LATENCY_RANGE, bitBucketSize: 32 });
}

export const encodeHistogram = (histogram: hdr.Histogram): string => hdr.encodeIntoCompressedBase64(histogram);
export const decodeHistogram = (encoded: string): hdr.Histogram => hdr.decodeFromCompressedBase64(encoded);

/** Percentiles in milliseconds. */
export function summarize(histogram: hdr.Histogram): LatencySummary {
  const ms = (us: number) => Math.round(us) / 1000;
  return {
    count: histogram.totalCount,
    mean: ms(histogram.totalCount ? histogram.mean : 0),
    p50: ms(histogram.getValueAtPercentile(50)),
    p90: ms(histogram.getValueAtPercentile(90)),
    p99: ms(histogram.getValueAtPercentile(99)),
    max: ms(histogram.maxValue),
  };
}
