import { ceilingWarmUp, STRATEGY_NAMES, type LoadProfile, type NoopMeasure } from '@oversell/contracts';
import { driveLoad, type LoadOptions } from '@oversell/loadtests';
import { answeringThroughput, type AnswerFigures } from '../lab/answer-count';

/**
 * Drives POST /api/noop at one URL with a bench run's load (the same load tool, connections and
 * duration), after the same discarded warm-up the ceiling gets, and reads what the server there
 * counted (take hands over its count and starts a new one).
 */
export async function measureNoop(url: string, take: () => Promise<AnswerFigures>, load: LoadProfile): Promise<NoopMeasure> {
  // The no-op takes no stock, but the load tool's options (and an instance's validation) name a strategy.
  const options = (profile: LoadProfile): LoadOptions => ({ urls: [url], target: 'noop', productId: 1, strategy: STRATEGY_NAMES[0], profile });
  await driveLoad(options(ceilingWarmUp(load).load));
  await take(); // the warm-up's, discarded
  const startedAt = Date.now();
  await driveLoad(options(load));
  const durationSec = (Date.now() - startedAt) / 1000;
  const figures = await take();
  return { throughput: answeringThroughput(figures), requests: figures.answers, durationSec: Math.round(durationSec * 100) / 100 };
}
