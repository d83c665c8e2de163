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
 * The histogram an instance records every answer into, and encodes at each flush: plain 32-bit counts,
 * 81 KB each, of which an instance keeps about three per run at a time (the seconds not yet final).
 * Recording into a packed one and encoding it cost about 6 µs an answer (docs/performance.md).
 */
export function newRecordingHistogram(): hdr.Histogram {
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
