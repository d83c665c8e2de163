import { SingleBar, Presets } from 'cli-progress';
import type { LoadProfile } from '@oversell/contracts';
import type { LoadTick } from './summary';

export interface ProgressDisplay {
  update(tick: LoadTick): void;
  stop(): void;
}

function formatStatuses(statusCounts: Record<string, number>): string {
  return Object.entries(statusCounts)
    .map(([status, count]) => `${status}:${count}`)
    .join(' ');
}

/**
 * A progress bar on a terminal; plain one-line-per-second output otherwise, so CI logs and files do
 * not fill with carriage-return redraws. The bar measures time, or requests for a count-bounded run.
 */
export function createProgressDisplay(profile: LoadProfile, out: NodeJS.WriteStream = process.stdout): ProgressDisplay {
  if (!out.isTTY) {
    return {
      update: (tick) =>
        out.write(
          `[${tick.elapsedSec.toFixed(1)}s] ${tick.requests} responses, ${tick.lastSecondRequests} req/s, ` +
            `status ${formatStatuses(tick.statusCounts) || '-'}, errors ${tick.errors}\n`,
        ),
      stop: () => undefined,
    };
  }
  const byCount = profile.durationSec === undefined;
  const bar = new SingleBar(
    {
      stream: out,
      format: `{bar} {percentage}% | {elapsed}s | {requests} responses | {rps} req/s | {statuses}`,
      hideCursor: true,
    },
    Presets.shades_classic,
  );
  bar.start(byCount ? (profile.totalRequests ?? 0) : (profile.durationSec ?? 0), 0, { elapsed: 0, requests: 0, rps: 0, statuses: '' });
  return {
    update: (tick) =>
      bar.update(byCount ? tick.requests : tick.elapsedSec, {
        elapsed: tick.elapsedSec.toFixed(0),
        requests: tick.requests,
        rps: tick.lastSecondRequests,
        statuses: formatStatuses(tick.statusCounts),
      }),
    stop: () => bar.stop(),
  };
}
