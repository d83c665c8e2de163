import type { FaultSettings } from './faults';
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
  /**
   * Faults the run carries (see FaultSettings): sent with the product reset, so every instance injects
   * them; a double-click among them is the load tool's own. The service checks them (400 naming
   * faults[i].field).
   */
  faults?: FaultSettings[];
}
