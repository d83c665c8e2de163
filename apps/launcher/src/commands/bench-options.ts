import type { OrderWrite, StrategyName } from '@oversell/contracts';
import type { LabRunOptions } from '../lab/lab-session';

/** What one bench runs: its own file, as a scaling run (bench-scaling.ts) is made of benches and the bench starts one. */
export interface BenchOptions extends LabRunOptions {
  scenario: string;
  strategies: StrategyName[];
  durationSec?: number;
  connections?: number;
  stock?: number;
  /** Each strategy is run once per entry, in this order. */
  orderWrites: OrderWrite[];
}
