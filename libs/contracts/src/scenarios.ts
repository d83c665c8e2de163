import type { RunSettings } from './products';
import type { ScenarioSettings } from './runs';

/**
 * A load scenario as written in loadtests/scenarios/*.json, read by the k6 scripts (open()), the Node
 * runner, the bench and the dashboard alike. Its `strategy` is the default for scripts that drive one
 * (STRATEGY in the environment overrides it).
 */
export interface Scenario extends Omit<ScenarioSettings, 'orderWrite' | 'faults'>, Partial<Pick<RunSettings, 'strategy'>> {
  name: string;
  description: string;
  /**
   * The bound the k6 scripts hold the p99 of order latency to, in ms (their threshold; P99_MS
   * overrides). A scenario built to cross any fixed bound sets none: expiry-pitfall puts 250 ms of
   * business behind one lock, so a lock strategy's orders queue for seconds by design.
   */
  orderP99Ms?: number;
  /**
   * Faults the run carries (see FaultSettings): sent with the product reset, so every instance injects
   * them; a double-click among them is the load tool's own. The service checks them (400 naming
   * faults[i].field).
   */
  faults?: ScenarioSettings['faults'];
}
