import * as hdr from 'hdr-histogram-js';

/** Acquire waits in microseconds, 1 µs to 1 min, 3 significant digits; merged across processes. */
export function newWaitHistogram(): hdr.Histogram {
  return hdr.build({ lowestDiscernibleValue: 1, highestTrackableValue: 60_000_000, numberOfSignificantValueDigits: 3 });
}

export const encodeWaits = (histogram: hdr.Histogram): string => hdr.encodeIntoCompressedBase64(histogram);

export function mergeWaits(encoded: readonly string[]): hdr.Histogram {
  const merged = newWaitHistogram();
  for (const one of encoded) merged.add(hdr.decodeFromCompressedBase64(one));
  return merged;
}

export interface WaitSummary {
  p50: number;
  p99: number;
  max: number;
}

/** Percentiles in milliseconds, to the microsecond. */
export function summarizeWaits(histogram: hdr.Histogram): WaitSummary {
  const ms = (us: number) => Math.round(us) / 1000;
  return { p50: ms(histogram.getValueAtPercentile(50)), p99: ms(histogram.getValueAtPercentile(99)), max: ms(histogram.maxValue) };
}
