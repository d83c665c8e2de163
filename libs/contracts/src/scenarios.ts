import type { LoadProfile } from './runs';
import type { StrategyName } from './strategies';

/**
 * A load scenario as written in loadtests/scenarios/*.json, read by the k6 scripts (open()), the Node
 * runner, the bench and the dashboard alike.
 */
export interface Scenario {
  name: string;
  description: string;
  /** Default strategy for scripts that drive one; STRATEGY in the environment overrides it. */
  strategy?: StrategyName;
  initialStock: number;
  lockTtlMs?: number;
  businessDelayMs?: number;
  segments?: number;
  load: LoadProfile;
}
