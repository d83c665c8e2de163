import { DEFAULT_BUSINESS_DELAY_MS, DEFAULT_LOCK_TTL_MS } from '../products';
import { RUN_LIMITS } from '../runs';
import type { StrategySetting } from './strategy-entry';

export interface StrategySettingBounds {
  min: number;
  max: number;
  /** What a product reset or a run that leaves the setting out gets. */
  default: number;
}

/** The bounds of each run setting a strategy can read (StrategyEntry.settings), as the API checks them. */
export const STRATEGY_SETTINGS = {
  lockTtlMs: { min: 1, max: RUN_LIMITS.maxLockTtlMs, default: DEFAULT_LOCK_TTL_MS },
  businessDelayMs: { min: 0, max: RUN_LIMITS.maxBusinessDelayMs, default: DEFAULT_BUSINESS_DELAY_MS },
  segments: { min: 1, max: 64, default: 5 },
} as const satisfies Record<StrategySetting, StrategySettingBounds>;
