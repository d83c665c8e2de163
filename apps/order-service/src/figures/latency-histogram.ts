import * as hdr from 'hdr-histogram-js';
import type { LatencySummary } from '@oversell/contracts';

/**
 * Latencies are recorded in microseconds, 1 µs to 5 min, 3 significant digits (HdrHistogram). Packed
 * counts keep a histogram of one second a few KB instead of ~100 KB: there is one per second, instance
 * and run.
 */
export function newLatencyHistogram(): hdr.Histogram {
  return hdr.build({ lowestDiscernibleValue: 1, highestTrackableValue: 300_000_000, numberOfSignificantValueDigits: 3, bitBucketSize: 'packed' });
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
