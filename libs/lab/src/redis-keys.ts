/**
 * Every Redis key and channel the order service itself owns, under the deployment's key prefix (the
 * stock library keeps its own). One place, so a reader sees the whole layout and no two files can
 * disagree on a name.
 */

/** Where BullMQ keeps the run queue. */
export const bullPrefix = (prefix: string) => `${prefix}:bull`;

/** One hash, a field per instance: its last heartbeat (JSON InstanceBeat). */
export const instancesKey = (prefix: string) => `${prefix}:instances`;

/** token → run id, for the requests that count in a run. */
export const runTokenKey = (prefix: string, token: string) => `${prefix}:run-token:${token}`;

/** A run's events (status, progress, lock, result), published by the worker, streamed by any instance. */
export const runEventsChannel = (prefix: string, runId: string) => `${prefix}:run:{${runId}}:events`;

/** The worker's flush requests, heard by every instance. */
export const flushRequestsChannel = (prefix: string) => `${prefix}:run-figures:flush`;

/** The instances' answers to one run's flush request. */
export const flushAckChannel = (prefix: string, runId: string) => `${prefix}:run:{${runId}}:flush-acks`;

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
  /** The traced orders' steps, one JSON SequenceStep per entry (its actor the request id), in no set order across instances. */
  get traceSteps(): string {
    return this.key('trace');
  }
  /** Faults injected, one JSON FaultEvent per entry, in the order they were recorded. */
  get faultEvents(): string {
    return this.key('faults');
  }
  /** Passages of the run's fault number `index` at its point, counted over the instances it targets. */
  faultPassages(index: number): string {
    return this.key(`fault:${index}:passages`);
  }
  /** The ids of the figure batches applied, so a batch re-sent after a lost reply is applied once. */
  get appliedBatches(): string {
    return this.key('applied-batches');
  }
  /**
   * When the run's requests came and went, epoch ms over every instance: `min:firstRequestAt` (the first
   * request's arrival), `max:lastAnswerAt` (the last answer), `max:lastSaleAt` (the last answer that sold).
   */
  get moments(): string {
    return this.key('moments');
  }
  /** Batches applied per instance: grows while an instance answers orders, whatever its heartbeat says. */
  get batchesByInstance(): string {
    return this.key('batches-by-instance');
  }
}

/** The fields of a run's `moments` (epoch ms): `min:` keeps the lowest value any instance sent, `max:` the highest. */
export const RUN_MOMENTS = {
  firstRequestAt: 'min:firstRequestAt',
  lastAnswerAt: 'max:lastAnswerAt',
  lastSaleAt: 'max:lastSaleAt',
} as const;

/** The counter (in `counts`) of lock holdings an instance did not keep, beyond its cap. */
export const LOCK_EVENTS_DROPPED = 'lock_events_dropped';

/** Figures are kept a week, then Redis drops them; the finished run's result lives in MySQL. */
export const RUN_FIGURES_TTL_SECONDS = 7 * 24 * 3600;

/** Where the presenter is in the course: one hash per lab (lessonId, runIds as JSON, version, updatedAt). */
export const courseKey = (prefix: string) => `${prefix}:course`;

/** Every change of the course's state, the new CourseState as JSON, heard by every instance. */
export const courseChannel = (prefix: string) => `${prefix}:course:events`;
