/** Where the instances pool one run's figures in Redis, so the worker can add them up across processes. */
export class RunFigureKeys {
  constructor(
    private readonly prefix: string,
    readonly runId: string,
  ) {}

  private key(suffix: string): string {
    return `${this.prefix}:run:{${this.runId}}:${suffix}`;
  }

  /** Outcome counters summed over instances: attempts, sold, sold_out, …, units, conflicts. */
  get counts(): string {
    return this.key('counts');
  }
  /** Per-second counters: fields `<second>:attempts`, `<second>:units`. */
  get seconds(): string {
    return this.key('seconds');
  }
  /** Latency histogram of one epoch second, one field per instance (compressed HdrHistogram). */
  histogram(second: number): string {
    return this.key(`hist:${second}`);
  }
  /** The seconds that have a histogram. */
  get histogramSeconds(): string {
    return this.key('hist-seconds');
  }
  /** Lock holdings, one JSON LockEvent per entry. */
  get lockEvents(): string {
    return this.key('locks');
  }
}

/** Figures are kept a week, then Redis drops them; the finished run's result lives in MySQL. */
export const RUN_FIGURES_TTL_SECONDS = 7 * 24 * 3600;
